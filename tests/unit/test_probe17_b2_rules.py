"""Probe round 17b, findings 1, 4 and 5 (branch p-b2): three rules that name the learner's line.

- `verify._lanes_unrescaled` (a sibling of the rescale slips in `verify._rescale_slip`): a loop keeps a per-lane
  running max and sum (`m_new = tl.maximum(m_lane, x)`, `m_lane = m_new`, the sum rescaled by
  exp(m_lane - m_new) and given exp(x - m_new) terms), and the straight-line code after it reduces the max
  across the lanes (`m = tl.max(m_lane)`) but sums the lane sums as they are (`s = tl.sum(s_lane)`): the
  `row-scaled` verdict takes that line; a row scaled far below 0.01 is taken as a scale only with that slip.
- `contracts.group_column_line`: a grouped tile order whose pid_m takes the group's real height
  (`% group_size_m`) while pid_n divides by the constexpr (`// GROUP_M`): the `tile-map` verdict takes pid_n's
  line.
- `verify._input_first_block`: a per-column 1-D input (a bias) read from its first block in every column tile:
  the reference recomputed with value j mod BLOCK gives the output (cause `input-first-block`), and the one
  load whose address has no program-id term is named.

Each rule is tested on the slip (it must name the line) and on correct or differently wrong code (it must stay
silent), and the AST rules over the probe corpora, the lab's kernels and the lessons."""

from __future__ import annotations

import ast
import glob
from pathlib import Path
from types import SimpleNamespace

import torch

from tritonlab.engine import contracts
from tritonlab.engine.tasks.verify import (
    _explain_values,
    _input_first_block,
    _lanes_unrescaled,
    _rescale_slip,
)
from tritonlab.present.diagnoses import describe

ROOT = Path(__file__).resolve().parents[2]
P17B = ROOT / "tests" / "integration" / "probe_round17_b"
LANES = P17B / "l08_softmax_wrong_per_lane_sums_added_without_rescale.py"
LANES_OK = P17B / "l08_softmax_ok_per_lane_running_max_sum_combined_with_rescale.py"
GROUP = P17B / "l09_matmul_wrong_grouped_order_pid_n_divides_by_group_m.py"
BIAS = P17B / "l09_matmul_bias_wrong_bias_offsets_without_tile_start.py"
BIAS_OK = P17B / "l09_matmul_bias_ok_column_major_tile_order_k_offsets_trange.py"


def _corpus() -> list[Path]:
    return [
        Path(f)
        for pattern in ("tests/integration/probe_*/*.py", "kernels/*.py", "lessons/*/*.py")
        for f in glob.glob(str(ROOT / pattern))
    ]


def _line(path: Path, text: str) -> int:
    lines = path.read_text().splitlines()
    start = next(i for i, line in enumerate(lines, 1) if line.startswith("import "))
    return next(i for i, line in enumerate(lines, 1) if i > start and text in line)


# --- per-lane sums added without the rescale ---------------------------------------------------------------

LANE_KERNEL = """
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, n, CHUNK: tl.constexpr):
    offs = tl.arange(0, CHUNK)
    m_lane = tl.full([CHUNK], -float("inf"), tl.float32)
    s_lane = tl.zeros([CHUNK], dtype=tl.float32)
    for start in range(0, n, CHUNK):
        x = tl.load(x_ptr + start + offs, mask=start + offs < n, other=-float("inf"))
        m_new = tl.maximum(m_lane, x)
        s_lane = s_lane * tl.exp(m_lane - m_new) + tl.exp(x - m_new)
        m_lane = m_new
COMBINE
"""


def _lanes(tmp_path, combine: str) -> dict | None:
    path = tmp_path / "k.py"
    path.write_text(LANE_KERNEL.replace("COMBINE", combine))
    return _rescale_slip(str(path))


def test_lane_sums_added_as_they_are_name_the_combine():
    found = _rescale_slip(str(LANES))
    assert found is not None and found["slip"] == "lanes-unrescaled", found
    assert found["line"] == _line(LANES, "s = tl.sum(s_lane, axis=0)"), found
    assert (found["name"], found["lane_max"], found["row_max"]) == ("s_lane", "m_lane", "m"), found


def test_lane_sums_written_other_ways(tmp_path):
    bare = "    m = tl.max(m_lane, axis=0)\n    s = tl.sum(s_lane, axis=0)\n"
    assert _lanes(tmp_path, bare)["line"] == 17
    assert _lanes(tmp_path, "    s = tl.sum(s_lane)\n    m = tl.max(m_lane)\n")["line"] == 16  # either order
    # rescaled before the sum, in the sum, or through a name: right
    for right in (
        "    m = tl.max(m_lane, axis=0)\n    s = tl.sum(s_lane * tl.exp(m_lane - m), axis=0)\n",
        "    m = tl.max(m_lane, axis=0)\n    s_lane = s_lane * tl.exp(m_lane - m)\n    s = tl.sum(s_lane)\n",
        "    m = tl.max(m_lane, axis=0)\n    w = tl.exp(m_lane - m)\n    s = tl.sum(s_lane * w)\n",
    ):
        assert _lanes(tmp_path, right) is None, right
    # no cross-lane max after the loop: the running max was not per lane (a row's online softmax)
    assert _lanes(tmp_path, "    s = tl.sum(s_lane, axis=0)\n") is None


def test_correct_and_differently_wrong_lane_files_are_not_named():
    assert _rescale_slip(str(LANES_OK)) is None
    # the rescale applied to another accumulator (no exp terms): not this slip
    picked = (
        ROOT / "tests/integration/probe_round14/l14_cross_entropy_wrong_rescale_applied_to_picked_not_sum.py"
    )
    found = _rescale_slip(str(picked))
    assert found is None or found["slip"] != "lanes-unrescaled", found
    loop = next(n for n in ast.walk(ast.parse(LANES_OK.read_text())) if isinstance(n, ast.For))
    assert _lanes_unrescaled(loop, []) is None  # nothing after the loop


def test_lanes_rule_flags_only_its_targets_across_the_corpora():
    files = _corpus()
    assert len(files) > 500
    flagged = {
        f.name for f in files if (found := _rescale_slip(str(f))) and found["slip"] == "lanes-unrescaled"
    }
    assert flagged == {
        "l08_softmax_wrong_per_lane_sums_added_without_rescale.py",
        "l14_cross_entropy_wrong_lanes_merged_without_rescale.py",  # probe round 6: the same slip
    }, flagged


def _scaled_rows() -> tuple[torch.Tensor, torch.Tensor]:
    expected = torch.softmax(torch.randn(3, 64, generator=torch.Generator().manual_seed(0)), dim=1)
    return expected * torch.tensor([[0.55], [0.021], [0.0064]]), expected  # one row far below 0.01


def _diag() -> dict:
    return {
        "kind": "mismatch",
        "count": 192,
        "numel": 192,
        "atol": 1e-6,
        "rtol": 1e-5,
        "message": "192 differ",
    }


def test_row_scaled_names_the_combine_even_for_a_row_far_below_one_percent():
    got, expected = _scaled_rows()
    diag = _diag()
    _explain_values([diag], got, expected, {}, 1e-6, 1e-5, learner_file=str(LANES))
    assert diag["cause"] == "row-scaled" and diag["line"] == 44, diag
    assert diag["rescale"]["slip"] == "lanes-unrescaled", diag
    assert "check what the row is divided by: line 44 (s = tl.sum(s_lane, axis=0))" in diag["message"]
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "check what the row is divided by: line 44 (s = tl.sum(s_lane, axis=0)) adds the lanes' sums" in en
    assert en.endswith("tl.sum(s_lane * tl.exp(m_lane - m))"), en
    assert "44 行目(s = tl.sum(s_lane, axis=0))はレーンごとの和 s_lane をそのまま足しています" in ja, ja
    assert "行の最大値 m" in ja and "行を割っている量を確認してください。" in ja, ja


def test_a_row_far_below_one_percent_is_no_scale_without_the_slip():
    got, expected = _scaled_rows()
    diag = _diag()
    _explain_values([diag], got, expected, {}, 1e-6, 1e-5, learner_file=str(LANES_OK))
    assert diag.get("cause") is None and "line" not in diag, diag


# --- pid_n divided by GROUP_M in the grouped order ---------------------------------------------------------

HEAD = """
import triton
import triton.language as tl


@triton.jit
def k(M, N, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
"""


def _group(tmp_path, body: str):
    path = tmp_path / "k.py"
    path.write_text(HEAD + body)
    return contracts.group_column_line(str(path))


def test_pid_n_by_group_m_is_named_at_its_line(tmp_path):
    found = contracts.group_column_line(str(GROUP))
    assert found is not None and found[0] == _line(GROUP, "pid_n = (pid % num_pid_in_group) // GROUP_M"), (
        found
    )
    assert found[2:] == ("GROUP_M", "group_size_m"), found
    body = """    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // GROUP_M
"""
    assert _group(tmp_path, body)[0] == 16


def test_a_right_or_otherwise_wrong_grouped_order_is_not_named(tmp_path):
    right = """    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
"""
    assert _group(tmp_path, right) is None
    # the height itself is the constexpr: group_height_line names pid_m, not this rule
    both = """    pid_m = first_pid_m + (pid % GROUP_M)
    pid_n = (pid % num_pid_in_group) // GROUP_M
"""
    assert _group(tmp_path, both) is None
    plain = """    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
"""
    assert _group(tmp_path, plain) is None


def test_group_column_rule_flags_only_its_targets_across_the_corpora():
    flagged = {f.name for f in _corpus() if contracts.group_column_line(str(f))}
    assert flagged == {  # every one divides pid_n by GROUP_M while pid_m takes min(...)
        "l09_matmul_wrong_grouped_order_pid_n_divides_by_group_m.py",
        "l13_persistent_matmul_wrong_pid_n_divided_by_group_m.py",
        "l13_persistent_matmul_wrong_group_column_full_height.py",
        "l13_persistent_matmul_wrong_pid_n_divides_by_group_m.py",
    }, flagged


def test_the_pid_n_sentence_in_both_languages():
    facts = {
        "kind": "unwritten",
        "cause": "tile-map",
        "count": 1,
        "programs": 9,
        "tiles": 9,
        "group_line": 42,
        "group_text": "pid_n = pid % num_pid_in_group // GROUP_M",
        "group_divisor": "GROUP_M",
        "group_height": "group_size_m",
        "line": 42,
    }
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert en.startswith("1 element was never written although the grid launched 9 programs for 9 tiles"), en
    assert "pid_n at line 42" in en and "divide by the group's real height, group_size_m" in en, en
    assert "42 行目" in ja and "group_size_m で割ってください" in ja and "GROUP_M で割っています" in ja, ja
    plain = dict(facts, group_divisor=None, group_height=None)  # the height's own sentence
    assert "min(num_pid_m - first_pid_m, GROUP_M)" in describe(plain, "en")


# --- a per-column input read from its first block in every column tile ----------------------------------

BIAS_EXERCISE = SimpleNamespace(reference="(a.float() @ b.float() + bias.float()).to(a.dtype)", inputs=[])


def _abb(n: int = 70):
    gen = torch.Generator().manual_seed(3)
    return {
        "a": torch.randn(5, 9, generator=gen),
        "b": torch.randn(9, n, generator=gen),
        "bias": torch.randn(n),
    }


def _first_block(got, inputs, learner_file=None, blocks=None) -> dict:
    diag = {"kind": "mismatch", "count": 10, "numel": got.numel(), "message": "10 elements differ"}
    blocks = blocks if blocks is not None else {"BLOCK_M": 16, "BLOCK_N": 32, "BLOCK_K": 16, "GROUP_M": 8}
    _input_first_block([diag], BIAS_EXERCISE, got, inputs, {}, {}, blocks, 1e-5, 1e-5, learner_file)
    return diag


def test_bias_from_its_first_block_is_named_with_the_load():
    inputs = _abb()
    a, b, bias = inputs["a"], inputs["b"], inputs["bias"]
    got = a @ b + bias[torch.arange(70) % 32]
    diag = _first_block(got, inputs, str(BIAS))
    assert diag["cause"] == "input-first-block" and (diag["input"], diag["block"]) == ("bias", 32), diag
    assert diag["line"] == _line(BIAS, "bias = tl.load(bias_ptr"), diag
    assert diag["address"] == "bias_ptr + bias_cols * stride_bias", diag
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "bias[j] replaced by bias[j mod 32]" in en and f"line {diag['line']} loads it from" in en, en
    assert "tile's column start" in en, en
    assert "bias[j mod 32]" in ja and f"{diag['line']} 行目" in ja and "列の開始位置" in ja, ja
    plain = _first_block(got, inputs)  # no file: the values alone, no line
    assert plain["cause"] == "input-first-block" and "line" not in plain, plain
    assert "line" not in describe(plain, "en")


def test_other_bias_slips_are_not_read_as_its_first_block():
    inputs = _abb()
    a, b, bias = inputs["a"], inputs["b"], inputs["bias"]
    for got in (
        a @ b,  # bias left out
        a @ b + 2 * bias,  # bias twice
        a @ b + bias.flip(0),  # another index
        a @ b + bias[torch.arange(70) % 16] + 1.0,  # a block read, and something else too
    ):
        assert _first_block(got, inputs, str(BIAS)).get("cause") is None
    # the first column tile only: no block width of the launch below the column count
    small = _abb(20)
    got = small["a"] @ small["b"] + small["bias"][torch.arange(20) % 16]
    assert _first_block(got, small, blocks={"BLOCK_N": 32}).get("cause") is None
    # a cause another check gave is kept
    diag = {"kind": "mismatch", "cause": "input-axis", "message": "x"}
    got = a @ b + bias[torch.arange(70) % 32]
    _input_first_block([diag], BIAS_EXERCISE, got, inputs, {}, {}, {"BLOCK_N": 32}, 1e-5, 1e-5, None)
    assert diag["cause"] == "input-axis"
