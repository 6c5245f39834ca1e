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
