"""The interpreter's race record: programs of one launch that load, change and store one element without atomics
(lost updates on a GPU, right values on the interpreter), and the look-alikes that are not races.

Runs in a child process: TRITON_INTERPRET=1 must be set before triton is imported.
"""

from tests.interpreted import last_json, run_interpreted

KERNELS = r"""
import triton
import triton.language as tl


@triton.jit
def shared_sum(x_ptr, acc_ptr, N: tl.constexpr):
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + tl.program_id(0) * N + cols)
    acc = tl.load(acc_ptr + cols)  # every program reads the one row ...
    tl.store(acc_ptr + cols, acc + x)  # ... and writes it back: lost updates on a GPU


@triton.jit
def own_rows(x_ptr, acc_ptr, N: tl.constexpr):
    cols = tl.arange(0, N)
    row = tl.program_id(0) * N
    acc = tl.load(acc_ptr + row + cols)
    tl.store(acc_ptr + row + cols, acc + tl.load(x_ptr + row + cols))


@triton.jit
def atomic_sum(x_ptr, acc_ptr, N: tl.constexpr):
    cols = tl.arange(0, N)
    tl.atomic_add(acc_ptr + cols, tl.load(x_ptr + tl.program_id(0) * N + cols))


@triton.jit
def locked_sum(x_ptr, acc_ptr, lock_ptr, N: tl.constexpr):
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + tl.program_id(0) * N + cols)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(acc_ptr + cols, tl.load(acc_ptr + cols) + x)
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def same_value_twice(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.minimum(tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), n - 1)  # clamped: the last one again
    tl.store(out_ptr + offs, tl.load(x_ptr + offs) * 2)
"""

SCRIPT = r"""
import importlib.util, json, sys
import torch
from tritonlab.engine import interpreter_support
from tritonlab.engine.memcheck import InterpreterMemcheck

interpreter_support.prepare_interpreter()
spec = importlib.util.spec_from_file_location("race_kernels", sys.argv[1])
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)
x = torch.arange(12, dtype=torch.float32)
runs = {
    "shared_sum": lambda: K.shared_sum[(3,)](x, torch.zeros(4), N=4),
    "own_rows": lambda: K.own_rows[(3,)](x, torch.zeros(12), N=4),
    "atomic_sum": lambda: K.atomic_sum[(3,)](x, torch.zeros(4), N=4),
    "locked_sum": lambda: K.locked_sum[(3,)](x, torch.zeros(4), torch.zeros(1, dtype=torch.int32), N=4),
    "same_value_twice": lambda: K.same_value_twice[(4,)](x, torch.zeros(12), 10, BLOCK=4),
}
found = {}
for name, run in runs.items():
    with InterpreterMemcheck(sys.argv[1]) as mc:
        run()
    found[name] = mc.stats.races
print(json.dumps(found))
"""


def test_a_read_modify_write_shared_by_programs_is_a_race_and_its_look_alikes_are_not(tmp_path):
    path = tmp_path / "race_kernels.py"
    path.write_text(KERNELS)
    found = last_json(run_interpreted(SCRIPT, str(path)))
    (race,) = found["shared_sum"]
    assert race["kernel"] == "shared_sum" and race["argument"] == "acc_ptr" and race["count"] == 4, race
    assert race["programs"] == [[0, 0, 0], [1, 0, 0]], race
    assert "tl.store(acc_ptr + cols, acc + x)" in KERNELS.splitlines()[race["line"] - 1], race
    # each program its own row; tl.atomic_add; a lock around the update (the official layer-norm backward);
    # two programs storing the same value without reading it first (clamped offsets): none is a race
    for calm in ("own_rows", "atomic_sum", "locked_sum", "same_value_twice"):
        assert found[calm] == [], (calm, found[calm])
