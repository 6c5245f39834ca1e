"""A deterministic exercise on the interpreter: one case runs again with its programs in reverse order, so a
result that depends on the order programs run in (float atomics) fails here as it fails on a GPU, while a
fixed-order reduction keeps its bits.

The interpreter part runs in a child process: TRITON_INTERPRET=1 must be set before triton is imported.
"""

from tests.interpreted import last_json, run_interpreted
from tritonlab.engine.tasks.verify import _reorder_case
from tritonlab.present.diagnoses import describe

SCRIPT = r"""
import json
import torch
import triton
import triton.language as tl
from tritonlab.engine import interpreter_support
from tritonlab.engine.interpreter_support import programs_in_reverse

interpreter_support.prepare_interpreter()


@triton.jit
def arrival(ticket_ptr, seen_ptr):
    pid = tl.program_id(0) * tl.num_programs(1) + tl.program_id(1)
    tl.store(seen_ptr + tl.atomic_add(ticket_ptr, 1), pid)


def order(grid):
    seen = torch.full((grid[0] * grid[1],), -1, dtype=torch.int32)
    arrival[grid](torch.zeros(1, dtype=torch.int32), seen)
    return seen.tolist()


@triton.jit
def atomic_sum(x_ptr, out_ptr, N: tl.constexpr):
    cols = tl.arange(0, N)
    tl.atomic_add(out_ptr + cols, tl.load(x_ptr + tl.program_id(0) * N + cols))


x = torch.randn(64, 32, generator=torch.Generator().manual_seed(0)) * torch.logspace(-4, 4, 64)[:, None]


def summed():
    out = torch.zeros(32)
    atomic_sum[(64,)](x, out, N=32)
    return out


found = {"before": order((2, 3))}
first = summed()
with programs_in_reverse() as active:
    found["active"] = active
    found["reversed"] = order((2, 3))
    found["changed"] = int((summed() != first).sum())
found["after"] = order((2, 3))
found["again"] = int((summed() != first).sum())
print(json.dumps(found))
"""


def test_programs_run_in_reverse_inside_and_in_order_outside():
    found = last_json(run_interpreted(SCRIPT))
    assert found["active"] is True
    assert found["before"] == [0, 1, 2, 3, 4, 5] and found["after"] == found["before"]
    assert found["reversed"] == [5, 4, 3, 2, 1, 0]
    # float atomics in another order move last bits; the same order twice does not
    assert found["changed"] > 0 and found["again"] == 0


def test_the_reordered_case_is_a_small_float32_one():
    cases = [
        ({"M": 1, "N": 1}, "float32", 0, {}),
        ({"M": 10, "N": 100}, "float32", 0, {}),
        ({"M": 33, "N": 300}, "float32", 0, {}),
        ({"M": 10, "N": 100}, "float16", 0, {}),
    ]
    assert _reorder_case(cases) == 1  # the largest fp32 case of at most 4096 elements
    assert _reorder_case(cases[2:]) == 0  # none that small: the smallest fp32 one
    assert _reorder_case([({"M": 3}, "bfloat16", 0, {}), ({"M": 9}, "float16", 0, {})]) == 1  # no fp32
    assert _reorder_case([]) is None


def test_an_order_dependent_result_is_said_as_such_in_both_languages():
    facts = {"kind": "nondeterministic", "output": "grad_w", "changed": 45, "order": "reversed"}
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert en.startswith("running the programs in reverse order changes grad_w (45 elements differ)")
    assert "a GPU runs them at the same time" in en
    assert ja.startswith("プログラムを逆順に実行すると grad_w が変わります(45 要素が異なります)")
    gpu = describe(dict(facts, order="same"), "en")
    assert gpu.startswith("two runs on the same inputs give different grad_w")


WAITS = r"""
import json
import time
import torch
import triton
import triton.language as tl
from tritonlab.engine import interpreter_support
from tritonlab.engine.interpreter_support import programs_in_reverse
from tritonlab.engine.learner import classify
from tritonlab.engine.memcheck import InterpreterMemcheck

interpreter_support.prepare_interpreter()


@triton.jit
def roles_by_id(flag_ptr, out_ptr, P):
    pid = tl.program_id(0)
    if pid < P:
        tl.store(out_ptr + pid, pid + 1.0)
        tl.atomic_add(flag_ptr, 1)
    else:
        while tl.atomic_add(flag_ptr, 0) < P:  # waits for programs 0 .. P-1
            pass
        tl.store(out_ptr + pid, -1.0)


@triton.jit
def locked_sum(x_ptr, acc_ptr, lock_ptr, N: tl.constexpr):
    cols = tl.arange(0, N)
    x = tl.load(x_ptr + tl.program_id(0) * N + cols)
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.store(acc_ptr + cols, tl.load(acc_ptr + cols) + x)
    tl.atomic_xchg(lock_ptr, 0)


def launch_roles():
    roles_by_id[(4,)](torch.zeros(1, dtype=torch.int32), torch.zeros(4), 3)


@triton.jit
def volatile_roles(flag_ptr, out_ptr, P):
    pid = tl.program_id(0)
    if pid < P:
        tl.store(out_ptr + pid, pid + 1.0)
        tl.atomic_add(flag_ptr, 1, sem="release")
    else:
        while tl.load(flag_ptr, volatile=True) < P:  # the CUDA habit: a volatile read of the flag
            pass
        tl.store(out_ptr + pid, -1.0)


@triton.jit
def volatile_reads(w_ptr, x_ptr, out_ptr, zeros_ptr, STEPS):
    # look-alikes of a spin: one volatile scalar read STEPS times with a store after each, and STEPS volatile
    # reads of zeros, each at its own address
    for i in range(STEPS):
        w = tl.load(w_ptr, volatile=True)
        tl.store(out_ptr + i, w * tl.load(x_ptr + i))
    acc = 0.0
    for i in range(STEPS):
        acc += tl.load(zeros_ptr + i, volatile=True)
    tl.store(out_ptr + STEPS, acc)


found = {}
with InterpreterMemcheck(__file__) as mc:
    launch_roles()  # in order: programs 0-2 run first, program 3's wait ends at once
    found["in_order"] = "ok"
    began = time.perf_counter()
    try:
        with programs_in_reverse():
            launch_roles()
        found["reversed"] = "ok"
    except Exception as exc:
        err = classify(exc, __file__)
        found["reversed"] = {k: err.get(k) for k in ("kind", "cause", "line", "program_id", "times", "order")}
    found["seconds"] = time.perf_counter() - began
    with programs_in_reverse():
        locked_sum[(3,)](torch.arange(12.0), torch.zeros(4), torch.zeros(1, dtype=torch.int32), N=4)
    found["lock"] = "ok"
    try:
        with programs_in_reverse():
            volatile_roles[(4,)](torch.zeros(1, dtype=torch.int32), torch.zeros(4), 3)
        found["volatile"] = "ok"
    except Exception as exc:
        err = classify(exc, __file__)
        found["volatile"] = {k: err.get(k) for k in ("kind", "cause", "line", "program_id", "op")}
    InterpreterMemcheck.SPIN_LIMIT = 300  # the look-alikes below repeat more than that (a long scalar loop
    steps = 400  # is slow under the race check's per-program records)
    out = torch.zeros(steps + 1)
    volatile_reads[(1,)](torch.tensor([2.0]), torch.arange(float(steps)), out, torch.zeros(steps), steps)
    found["reads"] = bool(torch.equal(out[:steps], 2.0 * torch.arange(float(steps))))
print(json.dumps(found))
"""


def test_a_wait_for_programs_that_cannot_run_is_named_at_once_and_a_lock_is_not(tmp_path):
    """Roles by program_id: run in reverse, the waiting program starts first and spins on an atomic that
    nothing can change. The lab stops it after SPIN_LIMIT unchanged repeats (about a second), not at the
    verify timeout, and names the line, the program and the order; a lock taken and released by each program
    in turn (the official layer-norm backward) never spins."""
    script = tmp_path / "waits.py"
    script.write_text(WAITS)
    found = last_json(
        run_interpreted("import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')", str(script))
    )
    assert found["in_order"] == "ok" and found["lock"] == "ok"
    waits = found["reversed"]
    assert waits["kind"] == "runtime" and waits["cause"] == "waits-forever", waits
    line = next(
        i for i, text in enumerate(WAITS.splitlines(), 1) if "while tl.atomic_add(flag_ptr, 0) < P" in text
    )
    assert waits["line"] == line and waits["program_id"] == [3, 0, 0] and waits["order"] == "reversed", waits
    assert waits["times"] >= 1000 and found["seconds"] < 20, found
    assert waits.get("op") is None or waits["op"] == "atomic"


def test_a_wait_on_a_volatile_load_is_named_and_repeated_reads_that_store_are_not(tmp_path):
    """The same roles by program_id, waiting on `tl.load(flag, volatile=True)` instead of an atomic: named with
    its line and `op` "load". A loop that reads one scalar volatile more than SPIN_LIMIT times but stores after
    each read, and as many volatile reads of zeros each at its own address, are not waits."""
    script = tmp_path / "waits.py"
    script.write_text(WAITS)
    found = last_json(
        run_interpreted("import runpy, sys; runpy.run_path(sys.argv[1], run_name='__main__')", str(script))
    )
    line = next(
        i for i, text in enumerate(WAITS.splitlines(), 1) if "tl.load(flag_ptr, volatile=True) < P" in text
    )
    assert found["volatile"] == {
        "kind": "runtime",
        "cause": "waits-forever",
        "line": line,
        "program_id": [3, 0, 0],
        "op": "load",
    }, found
    assert found["reads"] is True, found


def test_a_wait_that_cannot_end_is_said_in_both_languages():
    facts = {
        "kind": "runtime",
        "cause": "waits-forever",
        "line": 21,
        "program_id": [3, 0, 0],
        "grid": [4, 1, 1],
        "times": 5000,
        "order": "reversed",
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert en.startswith("program 3 repeated this atomic 5000 times and nothing it reads changed")
    assert "reverse order" in en and "deadlock" in en and "ticket" in en
    assert ja.startswith("プログラム 3 がこのアトミック操作を 5000 回繰り返しました") and "デッドロック" in ja
    assert "runs after it" in describe(dict(facts, order="in-order"), "en")
    load = describe(dict(facts, op="load"), "en")
    assert load.startswith("program 3 repeated this volatile load 5000 times"), load
    assert describe(dict(facts, op="load"), "ja").startswith("プログラム 3 がこの volatile ロードを 5000 回")
