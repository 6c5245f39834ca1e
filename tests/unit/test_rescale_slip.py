"""Source facts behind a `loop-steps` verdict and the `exp2-without-log2e` rule (probe round 16c, findings 3
and 5): `verify._unrescaled_branch` (an accumulator rescaled in one branch of an `if` only), `verify._mixed_base`
(tl.exp and tl.exp2 of one running max's differences), `verify._exp2_without_log2e` (exp2 with no trace of
log2(e) in the file); each tested on the slip and on correct variants, and over the probe corpora's files."""

from __future__ import annotations

import ast
import glob
from pathlib import Path

from tritonlab.engine.tasks.verify import (
    _exp2_without_log2e,
    _loop_steps_slip,
    _mixed_base,
    _rescale_slip,
    _unrescaled_branch,
)
from tritonlab.present.diagnoses import describe

ROOT = Path(__file__).resolve().parents[2]

BRANCHES = """
for start_n in range(lo, hi, BLOCK_N):
    s = tl.dot(q, k) * qk_scale
    if MASKED:
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None]
        acc = tl.dot(p, v, acc)
        m_i = m_new
    else:
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        ELSE_UPDATE
        m_i = m_new
"""


def loop_of(source: str) -> ast.AST:
    return next(n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.For, ast.While)))


def test_an_accumulator_rescaled_in_one_branch_only_names_the_other():
    found = _unrescaled_branch(loop_of(BRANCHES.replace("ELSE_UPDATE", "acc = tl.dot(p, v, acc)")))
    assert found == {
        "slip": "one-branch",
        "line": 17,
        "name": "acc",
        "factor": "alpha[:, None]",
        "rescaled_line": 9,
    }, found


def test_an_accumulator_rescaled_in_both_branches_or_before_the_if_is_right():
    for update in (
        "acc = tl.dot(p, v, acc * alpha[:, None])",
        "acc *= alpha[:, None]\n        acc += tl.dot(p, v)",
    ):
        assert _unrescaled_branch(loop_of(BRANCHES.replace("ELSE_UPDATE", update))) is None, update
    before = """
for start_n in range(lo, hi, BLOCK_N):
    alpha = tl.exp(m - m_new)
    acc = acc * alpha[:, None]
    if MASKED:
        acc = tl.dot(p, v, acc) * 1.0
    else:
        acc = tl.dot(p, v, acc)
"""
    assert _unrescaled_branch(loop_of(before)) is None
    first_step = """
for start_n in range(lo, hi, BLOCK_N):
    if start_n == lo:
        acc = tl.dot(p, v)
    else:
        acc = acc * tl.exp(m - m_new)[:, None]
        acc = tl.dot(p, v, acc)
"""
    assert (
        _unrescaled_branch(loop_of(first_step)) is None
    )  # the first branch starts acc, it does not update it


MIXED = """
def kernel():
    for start in range(0, V, BLOCK_V):
        x2 = x * C
        m_new = tl.maximum(m, x2)
        s = s * tl.RESCALE(m - m_new) + tl.TERMS(x2 - m_new)
        m = m_new
    AFTER
"""


def mixed(rescale: str, terms: str, after: str = "pass") -> dict | None:
    tree = ast.parse(MIXED.replace("RESCALE", rescale).replace("TERMS", terms).replace("AFTER", after))
    return _mixed_base(tree, next(n for n in ast.walk(tree) if isinstance(n, ast.For)))


def test_one_running_max_in_two_bases_names_the_odd_one():
    found = mixed("exp", "exp2", after="lse = tl.exp2(m - m_row)")  # the file's base is 2: exp is the odd one
    assert found is not None and found["line"] == 6 and found["base"] == "exp" and found["other"] == "exp2"
    assert found["arg"] == "m - m_new" and found["running"] == "m_new", found
    found = mixed("exp2", "exp", after="lse = tl.exp(m - m_row)")  # base e: the rescale's exp2 is odd
    assert found is not None and found["base"] == "exp2" and found["arg"] == "m - m_new", found
    found = mixed("exp", "exp2")  # a tie: the rescale of the old max (the loop sets m = m_new)
    assert found is not None and found["base"] == "exp", found


def test_one_base_or_a_scaled_difference_is_right():
    assert mixed("exp2", "exp2") is None
    assert mixed("exp", "exp") is None
    # exp2 of a scaled difference is exp in disguise: no bare difference, no claim
    tree = ast.parse(
        MIXED.replace("tl.RESCALE(m - m_new)", "tl.exp2((m - m_new) * C)").replace("TERMS", "exp")
    )
    assert _mixed_base(tree, next(n for n in ast.walk(tree) if isinstance(n, ast.For))) is None


def test_the_loop_steps_verdict_carries_the_slip_line_to_every_multi_step_case(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(MIXED.replace("RESCALE", "exp").replace("TERMS", "exp2").replace("AFTER", "pass"))
    first = {
        "kind": "mismatch",
        "cause": "loop-steps",
        "param": "V",
        "block": "BLOCK_V",
        "count": 3,
        "message": "m",
    }
    vague = {"kind": "mismatch", "cause": "all-wrong", "count": 2, "message": "2 elements differ"}
    own = {"kind": "mismatch", "cause": "tail-block", "count": 1, "message": "x"}
    bad = [{"diagnoses": [first]}, {"diagnoses": [vague]}, {"diagnoses": [own]}]
    _loop_steps_slip(first, bad, lambda case: 3, str(path))
    assert first["line"] == vague["line"] == 6 and vague["cause"] == "loop-steps", (first, vague)
    assert own["cause"] == "tail-block" and "line" not in own, own
    en, ja = describe(first, "en"), describe(first, "ja")
    assert "line 6 takes tl.exp(m - m_new), while the same line takes tl.exp2(x2 - m_new)" in en, en
    assert "6 行目は tl.exp(m - m_new) を計算していますが" in ja, ja


def test_a_lineless_size_threshold_on_a_longer_case_takes_the_slip_line(tmp_path):
    # a random case whose loop ran once passes; the size threshold then read the longer cases' symptom, with no
    # line (seen on some seeds of probe 16c's cross-entropy file): the slip's line is the sharper verdict there.
    # One that names its own line, or a case whose loop took one step, keeps what it said
    path = tmp_path / "k.py"
    path.write_text(MIXED.replace("RESCALE", "exp").replace("TERMS", "exp2").replace("AFTER", "pass"))
    first = {"kind": "mismatch", "cause": "loop-steps", "param": "V", "block": "BLOCK_V", "count": 3}
    symptom = {"kind": "mismatch", "cause": "size-threshold", "count": 9, "message": "s"}
    lined = {"kind": "mismatch", "cause": "size-threshold", "line": 25, "count": 9, "message": "c"}
    short = {"kind": "mismatch", "cause": "size-threshold", "count": 9, "message": "one step"}
    bad = [{"diagnoses": [first]}, {"diagnoses": [symptom]}, {"diagnoses": [lined]}, {"diagnoses": [short]}]
    _loop_steps_slip(first, bad, lambda case: 1 if case is bad[3] else 3, str(path))
    assert symptom["cause"] == "loop-steps" and symptom["line"] == 6, symptom
    assert (lined["cause"], lined["line"]) == ("size-threshold", 25), lined
    assert short["cause"] == "size-threshold" and "line" not in short, short


def test_the_one_branch_slip_is_worded_in_both_languages():
    diag = {
        "kind": "mismatch",
        "cause": "loop-steps",
        "param": "S",
        "block": "BLOCK_N",
        "count": 4,
        "line": 61,
        "rescale": {"slip": "one-branch", "name": "acc", "factor": "alpha[:, None]", "rescaled_line": 53},
    }
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "line 61 updates acc without rescaling it by alpha[:, None], as line 53 does" in en, en
    assert "61 行目は acc を alpha[:, None] で再スケールせずに更新" in ja and "53 行目" in ja, ja


SIGMOID = """
import triton.language as tl
CONST
def k(a):
    return a / (1.0 + tl.exp2(ARG))
"""


def test_an_exp2_with_no_log2e_in_the_file_is_named(tmp_path):
    path = tmp_path / "k.py"
    path.write_text(SIGMOID.replace("CONST", '"""exp2 without the log2(e) factor"""').replace("ARG", "-a"))
    assert _exp2_without_log2e(str(path)) == {"line": 5, "call": "tl.exp2(-a)"}


def test_log2e_anywhere_in_the_file_leaves_exp2_alone(tmp_path):
    path = tmp_path / "k.py"
    for const, arg in (
        ("", "-a * 1.4426950408889634"),
        ("", "a * -1.4427"),
        ("NEG_LOG2_E = tl.constexpr(-1.4426950408889634)", "a * NEG_LOG2_E"),
        ("C = 2.0 * 1.4426950408889634", "-a * C"),
        ("C = 2.8853900817779268", "-a * C"),
        ("import math\nC = 1 / math.log(2)", "-a * C"),
        ("import math\nC = math.log2(math.e)", "-a * C"),
        ("", "-a / 0.6931471805599453"),
        ("", "tl.log2(a)"),
    ):
        path.write_text(SIGMOID.replace("CONST", const).replace("ARG", arg))
        assert _exp2_without_log2e(str(path)) is None, (const, arg)


def test_only_the_slips_are_flagged_across_the_corpora():
    """Every learner file of the probe, broken, tamper and tutorial corpora, the lab's kernels and lessons:
    each rule flags only files written with that slip (a correct file never gets the line)."""
    files = [
        Path(f)
        for pattern in ("tests/integration/**/*.py", "kernels/*.py", "lessons/*/*.py")
        for f in glob.glob(str(ROOT / pattern), recursive=True)
    ]
    assert len(files) > 500
    slips = {f.name for f in files if _rescale_slip(str(f))}
    log2e = {f.name for f in files if _exp2_without_log2e(str(f))}
    assert slips == {
        "l11_attention_wrong_acc_rescale_only_in_masked_branch.py",
        "l14_cross_entropy_wrong_terms_in_base2_rescale_in_natural_exp.py",
        "l11_online_softmax_wrong_rescale_natural_exp.py",
        # probe round 17c's rules (`_uncarried_max`, `_terms_off_max`; tests/unit/test_probe17c_online_rules.py)
        "l11_attention_wrong_running_max_never_carried_to_next_block.py",
        "l11_online_softmax_wrong_m_not_updated.py",
        "l11_online_softmax_wrong_chunk_terms_against_chunk_max.py",
        # probe round 17b's per-lane sums added without the rescale (`_lanes_unrescaled`;
        # tests/unit/test_probe17_b2_rules.py)
        "l08_softmax_wrong_per_lane_sums_added_without_rescale.py",
        "l14_cross_entropy_wrong_lanes_merged_without_rescale.py",
    }, slips
    assert log2e == {
        "l14_swiglu_wrong_exp2_sigmoid_without_log2e.py",
        "l08_softmax_wrong_exp2_without_log2e.py",
    }, log2e
