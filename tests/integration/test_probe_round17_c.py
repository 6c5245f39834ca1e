"""Probe round 17, part c (a helper; `probe_round17_c/README.md` has the table): 14 held-out files over lessons
11–14 — 7 correct in shapes the references and earlier rounds do not use (an online softmax with log2(e) folded
into each exp2 and the state in the units of x, attention in one key loop that decides per block whether to mask,
stage 2 of dw as a pairwise tree of launches, operators made by calling triton_op with wrap_triton hoisted, a
persistent tile walk in zigzag rounds with a guard, d a built from db, cross-entropy lanes merged by tl.reduce) and
7 wrong with one slip each. Each test states the right verdict; where the lab is wrong or vaguer than it could be
today, the test is a strict xfail that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round17_c"

_CACHE: dict = {}


def verify(worker, exercise: str, name: str) -> dict:
    key = (exercise, name)
    if key not in _CACHE:
        _CACHE[key] = worker.request(
            "verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600
        )
    return _CACHE[key]


def first(result: dict) -> dict:
    """The first failing case's first diagnosis, or the top-level error (an out-of-bounds access stops a verify)."""
    if result.get("error") and not any(
        not c["passed"] and c.get("diagnoses") for c in result.get("cases") or []
    ):
        return result["error"]
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


def line_of(name: str, text: str, nth: int = 1) -> int:
    lines = (PROBES / name).read_text().splitlines()
    hits = [i for i, line in enumerate(lines, 1) if text in line]
    return hits[nth - 1]


def _gap(reason: str):
    return pytest.mark.xfail(strict=True, reason=reason)


def _ids(rows) -> list[str]:
    return [(r.values if hasattr(r, "values") else r)[1][:-3] for r in rows]


CORRECT = [
    ("11/online-softmax", "l11_online_softmax_ok_log2e_folded_into_exp2_state_in_natural_units.py"),
    ("11/attention", "l11_attention_ok_one_key_loop_mask_decided_per_block.py"),
    ("12/rms-norm-backward", "l12_rms_backward_ok_stage2_pairwise_tree_of_launches.py"),
    ("12/rms-norm-op", "l12_rms_op_ok_triton_op_called_not_decorated_wrap_triton_hoisted.py"),
    ("13/persistent-matmul", "l13_persistent_matmul_ok_rounds_dealt_zigzag_with_guard.py"),
    ("14/swiglu-backward", "l14_swiglu_backward_ok_da_from_db_and_sigmoid.py"),
    ("14/cross-entropy", "l14_cross_entropy_ok_lane_states_merged_by_tl_reduce.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failure's kind or None for any, its cause or None for any)
WRONG = [
    (
        "11/online-softmax",
        "l11_online_softmax_wrong_chunk_terms_against_chunk_max.py",
        "mismatch",
        "row-scaled",
    ),
    (
        "11/attention",
        "l11_attention_wrong_running_max_never_carried_to_next_block.py",
        "mismatch",
        "loop-steps",
    ),
    (
        "12/rms-norm-backward",
        "l12_rms_backward_wrong_dw_accumulates_g_not_dy.py",
        "mismatch",
        "grad-times-input",
    ),
    (  # finding 1, fixed: was tile-id-map ("the tile loop … steps by the program count")
        "13/persistent-matmul",
        "l13_persistent_matmul_wrong_tile_loop_steps_by_num_tiles.py",
        "unwritten",
        "tile-loop",
    ),
    (  # finding 5, fixed: was a bare mismatch
        "13/matmul-descriptors",
        "l13_matmul_descriptors_wrong_b_tile_loaded_at_off_m.py",
        "mismatch",
        "descriptor-axis",
    ),
    ("14/swiglu", "l14_swiglu_wrong_sigmoid_exponent_sign_flipped.py", "mismatch", "sigmoid-sign"),
    ("14/cross-entropy", "l14_cross_entropy_wrong_target_logit_loaded_at_row_times_v.py", "oob", None),
]


@pytest.mark.parametrize("exercise, name, kind, cause", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail(worker, exercise, name, kind, cause):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = first(result)
    if kind is not None:
        assert diag.get("kind") == kind, diag
    if cause is not None:
        assert diag.get("cause") == cause, diag


# --- right today ------------------------------------------------------------------------------------------------


def test_a_target_logit_read_at_row_times_v_is_named_at_its_load(worker):
    # only the far-rows case (rows 2**30 apart) fails: row 1's target logit at row * V + target lies between the
    # rows of the strided view — memcheck names the separate load and says to step with the tensor's strides
    name = "l14_cross_entropy_wrong_target_logit_loaded_at_row_times_v.py"
    result = verify(worker, "14/cross-entropy", name)
    bad = [c for c in result["cases"] if not c["passed"]]
    assert [c["kwargs"].get("@far_rows") for c in bad] == ["logits"], [c["name"] for c in bad]
    error = result["error"]
    assert error["kind"] == "oob" and error["detail"]["arg"] == "logits_ptr", error
    assert error["line"] == line_of(name, "target_logit = tl.load(logits_ptr + row * V + target)"), error
    assert "strides" in error["message"], error["message"]


def test_a_max_never_carried_fails_only_where_the_key_loop_takes_several_steps(worker):
    # the failing non-causal cases are exactly those with S > BLOCK_N (16): one key block has nothing to carry
    name = "l11_attention_wrong_running_max_never_carried_to_next_block.py"
    result = verify(worker, "11/attention", name)
    for case in result["cases"]:
        if "S" in (case.get("params") or {}) and not (case.get("kwargs") or {}).get("causal"):
            assert case["passed"] == (case["params"]["S"] <= 16), case["name"]


# --- findings: the verdict is right, the explanation is not yet ------------------------------------------------


def test_a_tile_loop_stepping_by_the_tile_count_is_named_at_the_loop(worker):
    # finding 1, fixed: was "the tile loop takes every tile id once (… steps by the program count)" at line 48
    # (tile-id-map); the loop at line 47 steps by num_tiles, its own stop, so each program computes one tile
    name = "l13_persistent_matmul_wrong_tile_loop_steps_by_num_tiles.py"
    diag = first(verify(worker, "13/persistent-matmul", name))
    assert diag.get("cause") == "tile-loop" and diag.get("form") == "stop", diag
    assert "steps by the program count" not in diag["message"], diag["message"]
    assert "its own stop" in diag["message"], diag["message"]
    assert diag.get("line") == line_of(
        name, "for tile_id in range(tl.program_id(axis=0), num_tiles, num_tiles)"
    ), diag


# finding 2, fixed: verify._uncarried_max gives loop-steps the tl.maximum's line
def test_a_running_max_never_carried_is_named(worker):
    name = "l11_attention_wrong_running_max_never_carried_to_next_block.py"
    diag = first(verify(worker, "11/attention", name))
    assert diag.get("cause") == "loop-steps", diag
    assert diag.get("line") == line_of(name, "m_new = tl.maximum(m_i, tl.max(s, axis=1))"), diag


# finding 2, fixed: the uncarried max's slip takes the causal cases' NaN too (-inf - (-inf), not an overflow)
def test_the_causal_nan_of_an_uncarried_max_is_not_called_an_overflow(worker):
    name = "l11_attention_wrong_running_max_never_carried_to_next_block.py"
    result = verify(worker, "11/attention", name)
    nans = [
        c["diagnoses"][0]
        for c in result["cases"]
        if not c["passed"] and c.get("diagnoses") and c["diagnoses"][0].get("kind") == "nan"
    ]
    assert nans, "the causal cases no longer make NaN"
    for diag in nans:
        assert "subtract a max before exp" not in diag["message"], diag["message"]
        assert diag.get("line") == line_of(name, "m_new = tl.maximum(m_i, tl.max(s, axis=1))"), diag


# finding 3, fixed: verify._terms_off_max gives row-scaled the terms' line
def test_chunk_terms_against_the_chunk_max_are_named(worker):
    name = "l11_online_softmax_wrong_chunk_terms_against_chunk_max.py"
    diag = first(verify(worker, "11/online-softmax", name))
    assert diag.get("cause") in ("row-scaled", "loop-steps"), diag
    assert diag.get("line") == line_of(name, "tl.sum(tl.exp2(x - m_chunk), axis=0)"), diag


def test_dw_accumulated_from_g_is_named(worker):
    # was all-wrong 'check its formula in the backward' with no line (finding 4): grad_w[j] is the right value
    # times w[j] (value_slips.grad_times_input), and the one dw accumulation is line 59, its g = dy * w
    name = "l12_rms_backward_wrong_dw_accumulates_g_not_dy.py"
    diag = first(verify(worker, "12/rms-norm-backward", name))
    assert diag.get("cause") == "grad-times-input" and diag.get("input") == "w", diag
    assert diag.get("line") == line_of(name, "    dw_acc += g * x_hat"), diag
    assert diag.get("via") == "g" and diag.get("via_line") == line_of(name, "g = dy * w"), diag


def test_a_b_tile_loaded_at_the_row_offset_is_named(worker):
    # finding 5, fixed: was a bare mismatch (rows 0–16, columns 32–63) with no cause and no line; B's tile is
    # loaded at column off_m (line 61), the coordinate A's load and C's store give the M axis
    name = "l13_matmul_descriptors_wrong_b_tile_loaded_at_off_m.py"
    diag = first(verify(worker, "13/matmul-descriptors", name))
    assert diag.get("cause") == "descriptor-axis", diag
    assert (diag.get("coordinate"), diag.get("instead")) == ("off_m", "off_n"), diag
    assert diag.get("line") == line_of(name, "b = b_desc.load([ki * BLOCK_K, off_m])"), diag


def test_a_sigmoid_with_the_sign_flipped_is_named(worker):
    # was all-wrong 'check the operation, the argument order and the dtype' with no line (finding 6): the output
    # is a * sigmoid(-a) * b (value_slips.sigmoid_sign), from the hand-written sigmoid at line 18
    name = "l14_swiglu_wrong_sigmoid_exponent_sign_flipped.py"
    result = verify(worker, "14/swiglu", name)
    diag = first(result)
    assert diag.get("cause") == "sigmoid-sign", diag
    assert diag.get("line") == line_of(name, "gate = 1.0 / (1.0 + tl.exp(a))"), diag
    assert all(c["diagnoses"][0].get("cause") == "sigmoid-sign" for c in result["cases"] if not c["passed"])
