"""Probe round 17c, findings 2 and 3: two more rescale slips read from the learner's loop (`verify._rescale_slip`).

- `_uncarried_max`: `m_new = tl.maximum(m_i, ...)` and a rescale `tl.exp2(m_i - m_new)` in a loop that never
  assigns m_i (the `m_i = m_new` that ends the update is missing): the `loop-steps` verdict takes the
  tl.maximum's line, and so does the NaN of a step that masks a whole row (-inf - (-inf)), which the lab used to
  call an overflow ("subtract a max before exp") although the file subtracts one.
- `_terms_off_max`: the old sum rescaled to the running max while the step's terms are taken against another
  max (`l = l * tl.exp2(m - m_new) + tl.sum(tl.exp2(x - m_chunk))`): the `row-scaled` verdict (or `loop-steps`)
  takes the terms' line.

Each rule is tested on the slip (it must name the line: the false-pass side of the explanation) and on correct
online softmaxes and attentions written several ways (it must stay silent: the false-fail side), and over the
probe corpora, the lab's kernels and the lessons."""

from __future__ import annotations

import ast
import glob
from pathlib import Path

import torch

from tritonlab.engine.tasks.verify import (
    _explain_values,
    _loop_steps_slip,
    _rescale_slip,
    _terms_off_max,
    _uncarried_max,
)
from tritonlab.present.diagnoses import describe

ROOT = Path(__file__).resolve().parents[2]
PROBES = ROOT / "tests" / "integration" / "probe_round17_c"
ATTENTION = PROBES / "l11_attention_wrong_running_max_never_carried_to_next_block.py"
CHUNK_MAX = PROBES / "l11_online_softmax_wrong_chunk_terms_against_chunk_max.py"


def loop_of(source: str) -> ast.AST:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.For, ast.While)))


def line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


# --- the running max never carried (finding 2) ------------------------------------------------------------------

KEY_LOOP = """
for start_n in range(lo, hi, BLOCK_N):
    s = tl.dot(q, k) * qk_scale
    m_new = tl.maximum(m_i, tl.max(s, axis=1))
    p = tl.exp2(s - m_new[:, None])
    alpha = tl.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = acc * alpha[:, None]
    acc = tl.dot(p.to(v.dtype), v, acc)
    CARRY
"""


def test_a_running_max_never_carried_is_named_at_its_maximum():
    found = _uncarried_max(loop_of(KEY_LOOP.replace("CARRY", "pass")))
    assert found == {
        "slip": "uncarried",
        "line": 4,
        "name": "m_i",
        "running": "m_new",
        "factor": "tl.exp2(m_i - m_new)",
    }, found
    # the probe's file: the state is the helper's parameter, the loop in a function of its own
    found = _rescale_slip(str(ATTENTION))
    assert found is not None and found["slip"] == "uncarried", found
    assert found["line"] == line_of(ATTENTION, "m_new = tl.maximum(m_i, tl.max(s, axis=1))"), found
    # an online softmax's scalar state, the factor inside a scaled difference, the max as the second argument
    chunk = """
for start in range(0, n_cols, BLOCK_SIZE):
    x = tl.load(row_ptr + start + cols, mask=start + cols < n_cols, other=-float("inf"))
    m_next = tl.maximum(tl.max(x, axis=0), running)
    total = total * tl.exp((running - m_next) * 1.0) + tl.sum(tl.exp(x - m_next), axis=0)
"""
    found = _uncarried_max(loop_of(chunk))
    assert found is not None and (found["line"], found["name"], found["running"]) == (4, "running", "m_next")


def test_a_running_max_carried_in_any_form_is_right():
    carried = (
        "m_i = m_new",
        "m_i, l_prev = m_new, l_i",  # a tuple assignment
        "if True:\n        m_i = m_new",  # inside a branch
        "m_i += m_new - m_i",  # an augmented assignment
    )
    for carry in carried:
        assert _uncarried_max(loop_of(KEY_LOOP.replace("CARRY", carry))) is None, carry
    # the max updated in place, the old one kept for the factor
    in_place = """
for start in range(0, N, BLOCK):
    m_old = m
    m = tl.maximum(m, tl.max(x, axis=0))
    l = l * tl.exp(m_old - m) + tl.sum(tl.exp(x - m), axis=0)
"""
    assert _uncarried_max(loop_of(in_place)) is None
    # a lazy rescale (the max moves only past a threshold: no tl.maximum assigned) and a clamp with no rescale
    lazy = """
for start_n in range(lo, hi, BLOCK_N):
    m_blk = tl.max(s, axis=1)
    m_new = tl.where(m_blk > m_i + 8.0, tl.maximum(m_i, m_blk), m_i)
    alpha = tl.exp2(m_i - m_new)
    m_i = m_new
"""
    clamp = """
for k in range(0, K, BLOCK_K):
    acc = tl.maximum(floor, acc + tl.load(p + k))
    y = tl.exp(acc - 1.0)
"""
    assert _uncarried_max(loop_of(lazy)) is None and _uncarried_max(loop_of(clamp)) is None


def test_the_loop_steps_verdict_and_the_nan_of_a_masked_step_take_the_line(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(KEY_LOOP.replace("CARRY", "pass"))
    first = {"kind": "mismatch", "cause": "loop-steps", "param": "S", "block": "BLOCK_N", "count": 9}
    nan = {"kind": "nan", "count": 512, "rows": [0, 1], "finite_inputs": True, "message": "overflow"}
    short = {"kind": "nan", "count": 512, "rows": [0, 1], "finite_inputs": True, "message": "one step"}
    bad = [{"diagnoses": [first]}, {"diagnoses": [nan]}, {"diagnoses": [short]}]
    _loop_steps_slip(first, bad, lambda case: 1 if case is bad[2] else 3, str(path))
    assert (first["line"], nan["line"], nan["cause"]) == (4, 4, "loop-steps"), (first, nan)
    assert nan["rescale"]["slip"] == "uncarried" and "-inf - (-inf) is NaN" in nan["message"], nan
    assert "line" not in short and short.get("cause") is None, short  # its loop took one step: not this slip
    en, ja = describe(nan, "en"), describe(nan, "ja")
    assert "subtract a max before exp" not in en, en
    assert "line 4 computes the new running max m_new from m_i, but the loop never sets m_i to it" in en, en
    assert "-inf - (-inf) is NaN — end the update with m_i = m_new" in en, en
    assert "4 行目で m_i から新しい途中の最大値 m_new を計算していますが" in ja, ja
    assert "-inf - (-inf) が NaN になります。更新の最後に m_i = m_new を追加してください" in ja, ja
    en = describe(first, "en")
    assert "NaN" not in en and "end the update with m_i = m_new" in en, en


def test_another_slip_does_not_take_a_nan(tmp_path):
    # a running max's differences in two bases makes no NaN of its own: an inf/NaN case keeps what it said
    path = tmp_path / "k.py"
    path.write_text(
        """
def kernel():
    for start in range(0, V, BLOCK_V):
        m_new = tl.maximum(m, x2)
        s = s * tl.exp(m - m_new) + tl.exp2(x2 - m_new)
        m = m_new
"""
    )
    first = {"kind": "mismatch", "cause": "loop-steps", "param": "V", "block": "BLOCK_V", "count": 3}
    nan = {"kind": "nan", "count": 4, "rows": [0], "finite_inputs": True, "message": "overflow"}
    _loop_steps_slip(first, [{"diagnoses": [first]}, {"diagnoses": [nan]}], lambda case: 3, str(path))
    assert first["rescale"]["slip"] == "mixed-base" and "line" not in nan and "cause" not in nan, nan


# --- a step's terms against another max (finding 3) -------------------------------------------------------------

CHUNK = """
for start in range(0, n_cols, BLOCK_SIZE):
    x = tl.load(in_row + start + cols, mask=start + cols < n_cols, other=-float("inf"))
    m_chunk = tl.max(x, axis=0)
    m_new = tl.maximum(m, m_chunk)
    UPDATE
    m = m_new
"""


def terms(update: str) -> dict | None:
    return _terms_off_max(loop_of(CHUNK.replace("UPDATE", update)))


def test_terms_against_the_chunk_max_are_named_at_their_exp():
    found = terms("l = l * tl.exp2(m - m_new) + tl.sum(tl.exp2(x - m_chunk), axis=0)")
    assert found == {
        "slip": "terms-max",
        "line": 6,
        "name": "l",
        "terms": "tl.exp2(x - m_chunk)",
        "terms_max": "m_chunk",
        "running": "m_new",
        "factor": "tl.exp2(m - m_new)",
        "rescale_line": 6,
    }, found
    # over several statements: the factor and the terms in names, the sum rescaled in place, then added to
    found = terms(
        "alpha = tl.exp((m - m_new) * C)\n    p = tl.exp((x - m_chunk) * C)\n    l *= alpha\n"
        "    l += tl.sum(p, axis=0)"
    )
    assert found is not None and (found["line"], found["rescale_line"]) == (7, 8), found
    assert (found["terms"], found["factor"]) == ("tl.exp((x - m_chunk) * C)", "alpha"), found
    # the probe's file
    found = _rescale_slip(str(CHUNK_MAX))
    assert found is not None and found["slip"] == "terms-max", found
    assert found["line"] == line_of(CHUNK_MAX, "tl.sum(tl.exp2(x - m_chunk), axis=0)"), found


def test_an_attention_whose_block_terms_take_the_block_max_is_named():
    source = """
for start_n in range(lo, hi, BLOCK_N):
    s = tl.dot(q, k) * qk_scale
    m_blk = tl.max(s, axis=1)
    p = tl.exp2(s - m_blk[:, None])
    m_new = tl.maximum(m_i, m_blk)
    alpha = tl.exp2(m_i - m_new)
    acc = acc * alpha[:, None]
    acc = tl.dot(p.to(v.dtype), v, acc)
    l_i = l_i * alpha + tl.sum(p, axis=1)
    m_i = m_new
"""
    found = _terms_off_max(loop_of(source))
    assert found is not None and (found["line"], found["name"], found["terms_max"]) == (5, "acc", "m_blk")
    assert found["rescale_line"] == 8, found


def test_terms_brought_to_the_running_max_are_right():
    right = (
        # the lesson's update
        "l = l * tl.exp2(m - m_new) + tl.sum(tl.exp2(x - m_new), axis=0)",
        # log2(e) folded into each exp2, the state in the units of x (probe 17c's correct file)
        "l = l * tl.exp2((m - m_new) * LOG2_E) + tl.sum(tl.exp2((x - m_new) * LOG2_E), axis=0)",
        # a merge of two (max, sum) pairs: the chunk's sum against its own max, then brought to m_new
        "l = l * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_chunk), axis=0) * tl.exp(m_chunk - m_new)",
        "l_chunk = tl.sum(tl.exp(x - m_chunk), axis=0)\n    l = l * tl.exp(m - m_new) + l_chunk * "
        "tl.exp(m_chunk - m_new)",
        # the max carried before the terms are taken: m is m_new there
        "alpha = tl.exp(m - m_new)\n    m = m_new\n    l = l * alpha + tl.sum(tl.exp(x - m), axis=0)",
        # a lazy rescale behind tl.where
        "alpha = tl.where(m_new > m, tl.exp2(m - m_new), 1.0)\n    l = l * alpha + tl.sum(tl.exp2(x - m_new))",
    )
    for update in right:
        assert terms(update) is None, update
    # the Triton tutorial's form: the difference folded into the scores before exp2
    tutorial = """
for start_n in range(lo, hi, BLOCK_N):
    qk = tl.dot(q, k)
    m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
    qk = qk * qk_scale - m_ij[:, None]
    p = tl.math.exp2(qk)
    l_ij = tl.sum(p, 1)
    alpha = tl.math.exp2(m_i - m_ij)
    l_i = l_i * alpha + l_ij
    acc = acc * alpha[:, None]
    acc = tl.dot(p.to(tl.float16), v, acc)
    m_i = m_ij
"""
    assert _terms_off_max(loop_of(tutorial)) is None
    for solution in ("kernels/online_softmax.py", "kernels/flash_attention.py", "kernels/cross_entropy.py"):
        assert _rescale_slip(str(ROOT / solution)) is None, solution


def test_the_row_scaled_verdict_takes_the_terms_line():
    # the values the slip makes: each row right up to a factor of its own
    expected = torch.softmax(torch.randn(3, 16, generator=torch.Generator().manual_seed(0)), dim=1)
    got = expected * torch.tensor([[0.95], [0.56], [0.61]])
    diag = {"kind": "mismatch", "count": 48, "numel": 48, "atol": 1e-6, "rtol": 5e-5, "message": "48 differ"}
    _explain_values([diag], got, expected, {}, 1e-6, 5e-5, learner_file=str(CHUNK_MAX))
    assert diag["cause"] == "row-scaled" and diag["line"] == 37, diag
    assert diag["rescale"]["slip"] == "terms-max" and diag["rescale"]["terms_max"] == "m_chunk", diag
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "row 0 × 0.95" in en and "line 37 takes this step's terms as tl.exp2(x - m_chunk)" in en, en
    assert "the same line rescales the old l to m_new (tl.exp2(m - m_new))" in en, en
    assert en.endswith("take the terms against m_new"), en
    assert "37 行目では、古い l を m_new 基準に再スケールしている(tl.exp2(m - m_new))のに" in ja, ja
    assert "項も m_new を基準に取ってください" in ja, ja
    # a correct file keeps the generic row-scaled sentence (no line to name)
    diag = {"kind": "mismatch", "count": 48, "numel": 48, "atol": 1e-6, "rtol": 5e-5, "message": "48 differ"}
    correct = PROBES / "l11_online_softmax_ok_log2e_folded_into_exp2_state_in_natural_units.py"
    _explain_values([diag], got, expected, {}, 1e-6, 5e-5, learner_file=str(correct))
    assert diag["cause"] == "row-scaled" and "line" not in diag and "rescale" not in diag, diag
    assert "check what the row is divided by" in describe(diag, "en")


def test_a_terms_slip_on_another_line_is_worded_with_both_lines():
    diag = {
        "kind": "mismatch",
        "cause": "loop-steps",
        "param": "S",
        "block": "BLOCK_N",
        "count": 4,
        "line": 5,
        "rescale": {
            "slip": "terms-max",
            "name": "acc",
            "terms": "tl.exp2(s - m_blk[:, None])",
            "terms_max": "m_blk",
            "running": "m_new",
            "factor": "alpha[:, None]",
            "rescale_line": 8,
        },
    }
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert (
        "line 5 takes this step's terms as tl.exp2(s - m_blk[:, None]), against m_blk, while line 8" in en
    ), en
    assert "8 行目では古い acc を m_new 基準に再スケールしている(alpha[:, None])のに、5 行目では" in ja, ja


def test_each_rule_flags_only_its_slip_across_the_corpora():
    """Every learner file of the probe, broken, tamper and tutorial corpora, the lab's kernels and lessons: each
    new rule names only the files written with its slip."""
    files = [
        Path(f)
        for pattern in ("tests/integration/**/*.py", "kernels/*.py", "lessons/*/*.py")
        for f in glob.glob(str(ROOT / pattern), recursive=True)
    ]
    assert len(files) > 500
    uncarried, off_max = set(), set()
    for path in files:
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for loop in ast.walk(tree):
            if isinstance(loop, (ast.For, ast.While)):
                if _uncarried_max(loop):
                    uncarried.add(path.name)
                if _terms_off_max(loop):
                    off_max.add(path.name)
    assert uncarried == {
        "l11_attention_wrong_running_max_never_carried_to_next_block.py",
        "l11_online_softmax_wrong_m_not_updated.py",
    }, uncarried
    assert off_max == {"l11_online_softmax_wrong_chunk_terms_against_chunk_max.py"}, off_max
