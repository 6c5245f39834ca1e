"""The interpreter's reads-during-atomics record (probe 15c-3): in one launch, a plain load by one program of
elements that a program run after it updates with an atomic — the split-vocabulary cross entropy reads the row's
shared max (tl.atomic_max) before the row's later blocks raised it. Its look-alikes are not recorded: the last
program behind an atomic counter reading what the others added atomically, the sums read in a second launch, a
lock taken with atomic_cas, a volatile load, and atomics nobody reads in the launch (split-K, dw partials).

Runs in a child process: TRITON_INTERPRET=1 must be set before triton is imported."""

from tests.interpreted import last_json, run_interpreted
from tritonlab.engine.tasks.verify import _races
from tritonlab.present.diagnoses import describe

KERNELS = r"""
import triton
import triton.language as tl


@triton.jit
def shared_max_read_early(x_ptr, max_ptr, out_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    x = tl.load(x_ptr + pid * N + tl.arange(0, N))
    tl.atomic_max(max_ptr, tl.max(x, axis=0))
    m = tl.load(max_ptr)
    tl.store(out_ptr + pid, tl.sum(tl.exp(x - m), axis=0))


@triton.jit
def sum_then_last_reads(x_ptr, sum_ptr, count_ptr, out_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    tl.atomic_add(sum_ptr, tl.sum(tl.load(x_ptr + pid * N + tl.arange(0, N)), axis=0))
    if tl.atomic_add(count_ptr, 1, sem="acq_rel") == tl.num_programs(0) - 1:
        tl.store(out_ptr, tl.load(sum_ptr) * 2)


@triton.jit
def add_only(x_ptr, sum_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    tl.atomic_add(sum_ptr + tl.arange(0, N), tl.load(x_ptr + pid * N + tl.arange(0, N)))


@triton.jit
def read_sum(sum_ptr, out_ptr, N: tl.constexpr):
    tl.store(out_ptr + tl.arange(0, N), tl.load(sum_ptr + tl.arange(0, N)) * 2)


@triton.jit
def locked_read(x_ptr, sum_ptr, lock_ptr, out_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.atomic_add(sum_ptr, tl.sum(tl.load(x_ptr + pid * N + tl.arange(0, N)), axis=0))
    tl.store(out_ptr + pid, tl.load(sum_ptr))
    tl.atomic_xchg(lock_ptr, 0)


@triton.jit
def volatile_peek(x_ptr, sum_ptr, out_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    tl.atomic_add(sum_ptr, tl.sum(tl.load(x_ptr + pid * N + tl.arange(0, N)), axis=0))
    tl.store(out_ptr + pid, tl.load(sum_ptr, volatile=True))
"""

SCRIPT = r"""
import importlib.util, json, sys
import torch
from tritonlab.engine import interpreter_support
from tritonlab.engine.memcheck import InterpreterMemcheck

interpreter_support.prepare_interpreter()
spec = importlib.util.spec_from_file_location("atomic_kernels", sys.argv[1])
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)
x = torch.arange(12, dtype=torch.float32)


def two_launches():
    total = torch.zeros(4)
    K.add_only[(3,)](x, total, N=4)
    K.read_sum[(1,)](total, torch.zeros(4), N=4)


runs = {
    "shared_max_read_early": lambda: K.shared_max_read_early[(3,)](
        x, torch.full((1,), float("-inf")), torch.zeros(3), N=4
    ),
    "sum_then_last_reads": lambda: K.sum_then_last_reads[(3,)](
        x, torch.zeros(1), torch.zeros(1, dtype=torch.int32), torch.zeros(1), N=4
    ),
    "two_launches": two_launches,
    "locked_read": lambda: K.locked_read[(3,)](
        x, torch.zeros(1), torch.zeros(1, dtype=torch.int32), torch.zeros(3), N=4
    ),
    "volatile_peek": lambda: K.volatile_peek[(3,)](x, torch.zeros(1), torch.zeros(3), N=4),
}
found = {}
for name, run in runs.items():
    with InterpreterMemcheck(sys.argv[1]) as mc:
        run()
    found[name] = mc.stats.atomic_reads
print(json.dumps(found))
"""


def _line(text: str) -> int:
    return next(i for i, line in enumerate(KERNELS.splitlines(), 1) if text in line)


def test_a_read_before_later_atomics_is_recorded_and_its_look_alikes_are_not(tmp_path):
    path = tmp_path / "atomic_kernels.py"
    path.write_text(KERNELS)
    found = last_json(run_interpreted(SCRIPT, str(path)))

    (read,) = found["shared_max_read_early"]
    assert read["kernel"] == "shared_max_read_early" and read["argument"] == "max_ptr", read
    assert read["reader"] == [0, 0, 0] and read["writer"] == [1, 0, 0] and read["count"] == 1, read
    assert read["line"] == _line("m = tl.load(max_ptr)"), read
    assert read["atomic_line"] == _line("tl.atomic_max(max_ptr"), read

    for calm in ("sum_then_last_reads", "two_launches", "locked_read", "volatile_peek"):
        assert found[calm] == [], (calm, found[calm])


def test_a_read_during_atomics_is_said_with_both_lines_in_both_languages(tmp_path):
    record = {
        "kernel": "ce_partial_kernel",
        "file": None,
        "line": 26,
        "atomic_line": 25,
        "argument": "max_ptr",
        "count": 3,
        "reader": [0, 0, 0],
        "writer": [0, 1, 0],
    }
    (diag,) = _races({"atomic_reads": [record]}, None)
    assert diag["kind"] == "cross-program-read" and diag["cause"] == "read-during-atomics", diag
    assert diag["line"] == 26 and diag["atomic_line"] == 25, diag
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert en.startswith("line 26: program 0 loads 3 elements of max_ptr") and "(line 25)" in en, en
    assert "program (0, 1) updated it after this load" in en and "second one" in en, en
    assert ja.startswith("26 行目: プログラム 0 が max_ptr の 3 要素") and "(25 行目)" in ja, ja
    assert "2 回目の起動で読んで" in ja, ja
