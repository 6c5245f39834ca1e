"""The interpreter's cross-program read record: in one launch without atomics, one program loads elements that
another program stores. The interpreter runs programs in order, so the values come out right; a GPU runs them at
once and in any order. The false pass it closes: lesson 12's "the last program sums the partial rows" kernel.

Runs in a child process: TRITON_INTERPRET=1 must be set before triton is imported.
"""

from tests.interpreted import last_json, run_interpreted
from tritonlab.present.diagnoses import describe

KERNELS = r"""
import triton
import triton.language as tl


@triton.jit
def last_sums(x_ptr, partial_ptr, out_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, N)
    tl.store(partial_ptr + pid * N + cols, tl.load(x_ptr + pid * N + cols) * 2)
    if pid == tl.num_programs(0) - 1:  # the last program adds up every partial row: no second launch
        total = tl.zeros([N], dtype=tl.float32)
        for p in range(0, tl.num_programs(0)):
            total += tl.load(partial_ptr + p * N + cols)
        tl.store(out_ptr + cols, total)


@triton.jit
def shift_in_place(x_ptr, N: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs + 1))  # reads the first element of the next program's block


@triton.jit
def own_block_in_place(x_ptr, N: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) * 2)


@triton.jit
def stage1(x_ptr, partial_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, N)
    tl.store(partial_ptr + pid * N + cols, tl.load(x_ptr + pid * N + cols) * 2)


@triton.jit
def stage2(partial_ptr, out_ptr, P, N: tl.constexpr):
    cols = tl.arange(0, N)
    total = tl.zeros([N], dtype=tl.float32)
    for p in range(0, P):
        total += tl.load(partial_ptr + p * N + cols)
    tl.store(out_ptr + cols, total)


@triton.jit
def last_sums_after_a_counter(x_ptr, partial_ptr, out_ptr, count_ptr, N: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, N)
    tl.store(partial_ptr + pid * N + cols, tl.load(x_ptr + pid * N + cols) * 2)
    if tl.atomic_add(count_ptr, 1, sem="acq_rel") == tl.num_programs(0) - 1:  # the last to arrive sums
        total = tl.zeros([N], dtype=tl.float32)
        for p in range(0, tl.num_programs(0)):
            total += tl.load(partial_ptr + p * N + cols)
        tl.store(out_ptr + cols, total)


@triton.jit
def shared_sum(x_ptr, acc_ptr, N: tl.constexpr):
    cols = tl.arange(0, N)
    acc = tl.load(acc_ptr + cols)
    tl.store(acc_ptr + cols, acc + tl.load(x_ptr + tl.program_id(0) * N + cols))
"""

SCRIPT = r"""
import importlib.util, json, sys
import torch
from tritonlab.engine import interpreter_support
from tritonlab.engine.memcheck import InterpreterMemcheck

interpreter_support.prepare_interpreter()
spec = importlib.util.spec_from_file_location("cross_kernels", sys.argv[1])
K = importlib.util.module_from_spec(spec)
spec.loader.exec_module(K)
x = torch.arange(12, dtype=torch.float32)


def two_launches():
    partial = torch.zeros(12)
    K.stage1[(3,)](x, partial, N=4)
    K.stage2[(1,)](partial, torch.zeros(4), 3, N=4)


runs = {
    "last_sums": lambda: K.last_sums[(3,)](x, torch.zeros(12), torch.zeros(4), N=4),
    "shift_in_place": lambda: K.shift_in_place[(2,)](torch.arange(9, dtype=torch.float32), N=4),
    "own_block_in_place": lambda: K.own_block_in_place[(3,)](x.clone(), N=4),
    "two_launches": two_launches,
    "last_sums_after_a_counter": lambda: K.last_sums_after_a_counter[(3,)](
        x, torch.zeros(12), torch.zeros(4), torch.zeros(1, dtype=torch.int32), N=4
    ),
    "shared_sum": lambda: K.shared_sum[(3,)](x, torch.zeros(4), N=4),
}
found = {}
for name, run in runs.items():
    with InterpreterMemcheck(sys.argv[1]) as mc:
        run()
    found[name] = {"cross_reads": mc.stats.cross_reads, "races": mc.stats.races}
print(json.dumps(found))
"""


def _line(text: str) -> int:
    """The first line of KERNELS with `text` (last_sums, the first kernel, is the one recorded)."""
    return next(i for i, line in enumerate(KERNELS.splitlines(), 1) if text in line)


def test_reading_another_programs_store_in_one_launch_is_recorded_and_its_look_alikes_are_not(tmp_path):
    path = tmp_path / "cross_kernels.py"
    path.write_text(KERNELS)
    found = last_json(run_interpreted(SCRIPT, str(path)))

    (read,) = found["last_sums"]["cross_reads"]
    assert read["kernel"] == "last_sums" and read["argument"] == "partial_ptr", read
    assert read["count"] == 8 and read["reader"] == [2, 0, 0] and read["writer"] == [0, 0, 0], read
    assert read["stored"] == "before", read
    assert read["line"] == _line("total += tl.load(partial_ptr + p * N + cols)"), read
    assert read["store_line"] == _line(
        "tl.store(partial_ptr + pid * N + cols, tl.load(x_ptr + pid * N + cols) * 2)"
    )

    (shift,) = found["shift_in_place"]["cross_reads"]
    assert shift["reader"] == [0, 0, 0] and shift["writer"] == [1, 0, 0] and shift["count"] == 1, shift
    assert shift["stored"] == "after", shift  # the interpreter read the old value; a GPU may not

    # its own block in place; stage 2 in a second launch; the last to arrive at an atomic counter (acq_rel
    # makes it wait for the others' partial rows): none reads another program's store unsynchronized
    for calm in ("own_block_in_place", "two_launches", "last_sums_after_a_counter"):
        assert found[calm] == {"cross_reads": [], "races": []}, (calm, found[calm])
    # a read-modify-write race is said once, as a race, not again as a cross read
    assert len(found["shared_sum"]["races"]) == 1 and found["shared_sum"]["cross_reads"] == []


def test_a_cross_program_read_is_said_with_both_lines_and_programs_in_both_languages():
    facts = {
        "kind": "cross-program-read",
        "kernel": "dx_kernel",
        "argument": "partial_dw_ptr",
        "count": 14,
        "reader": [2, 0, 0],
        "writer": [0, 0, 0],
        "line": 80,
        "store_line": 76,
        "stored": "before",
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert en.startswith(
        "line 80: program 2 loads 14 elements of partial_dw_ptr that program 0 stores (line 76)"
    )
    assert "already there" in en and "second launch" in en
    assert ja.startswith(
        "80 行目: dx_kernel の 1 回の起動の中で、プログラム 0 が 76 行目でストアする partial_dw_ptr の 14 要素"
    )
    assert "プログラム 2" in ja and "すでに書かれて" in ja
    after = describe(dict(facts, stored="after", store_line=None, argument=None, count=1), "en")
    assert "read the old values" in after and "1 element that" in after and "(line" not in after
    assert "古い値" in describe(dict(facts, stored="after"), "ja")
