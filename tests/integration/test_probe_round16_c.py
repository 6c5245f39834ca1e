"""Probe round 16, part c (a helper; `probe_round16_c/README.md` has the table): 15 held-out files over lessons
11–14 — 7 correct in shapes the references and earlier rounds do not use (attention carrying a base-2 log-sum-exp
instead of l, an online softmax with a scalar max and per-lane sums, stage 2 of dw in even/odd accumulators, a
persistent tile walk from the last tile, cross-entropy with -inf padding and a guarded rescale, d silu/da as
s·(1 + a − silu), a SwiGLU with a folded exp2 sigmoid and an uncast store) and 8 wrong with one slip each. Each
test states the right verdict; where the lab is wrong or vaguer than it could be today, the test is a strict xfail
that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round16_c"

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
    ("11/attention", "l11_attention_ok_running_log2_sum_state_instead_of_l.py"),
    ("11/online-softmax", "l11_online_softmax_ok_scalar_max_per_lane_sums.py"),
    (
        "12/rms-norm-backward",
        "l12_rms_backward_ok_stage2_even_and_odd_partials_in_two_accumulators.py",
    ),
    ("13/persistent-matmul", "l13_persistent_matmul_ok_tiles_walked_from_the_last.py"),
    ("14/cross-entropy", "l14_cross_entropy_ok_neg_inf_padding_with_guarded_rescale.py"),
    ("14/swiglu-backward", "l14_swiglu_backward_ok_dsilu_as_s_times_one_plus_a_minus_silu.py"),
    ("14/swiglu", "l14_swiglu_ok_exp2_sigmoid_folded_constant_store_casts_implicitly.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failure's kind or None for any, its cause or None for any)
WRONG = [
    ("11/attention", "l11_attention_wrong_acc_rescale_only_in_masked_branch.py", "mismatch", "loop-steps"),
    ("11/attention", "l11_attention_wrong_row_sum_of_p_over_axis_0.py", "compile", "shape-mismatch"),
    (
        "12/rms-norm-backward",
        "l12_rms_backward_wrong_rstd_recomputed_with_centred_variance.py",
        "mismatch",
        "stat-recomputed",
    ),
    (
        "12/rms-norm-backward",
        "l12_rms_backward_wrong_stage2_reads_partials_column_major.py",
        "mismatch",
        "partials-transposed",
    ),
    (
        "13/persistent-matmul",
        "l13_persistent_matmul_wrong_group_size_uses_num_pid_m.py",
        "unwritten",
        "tile-id-map",
    ),
    (
        "14/cross-entropy",
        "l14_cross_entropy_wrong_terms_in_base2_rescale_in_natural_exp.py",
        "mismatch",
        "loop-steps",
    ),
    ("14/swiglu-backward", "l14_swiglu_backward_wrong_db_store_without_mask.py", "oob", None),
    ("14/swiglu", "l14_swiglu_wrong_exp2_sigmoid_without_log2e.py", "mismatch", "exp2-without-log2e"),
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


def test_a_row_sum_over_the_query_axis_is_a_shape_error_at_its_line(worker):
    name = "l11_attention_wrong_row_sum_of_p_over_axis_0.py"
    diag = first(verify(worker, "11/attention", name))
    assert diag.get("line") == line_of(name, "l_i = l_i * alpha + tl.sum(p, axis=0)"), diag


def test_an_unmasked_db_store_is_named_at_the_store(worker):
    name = "l14_swiglu_backward_wrong_db_store_without_mask.py"
    error = verify(worker, "14/swiglu-backward", name)["error"]
    assert error["line"] == line_of(name, "tl.store(db_ptr + offs"), error
    assert error["detail"]["arg"] == "db_ptr" and "no mask" in error["message"], error


def test_a_rescale_missing_in_the_unmasked_branch_is_named(worker):
    # was loop-steps with no line: verify._unrescaled_branch finds acc updated in both branches of `if MASKED:`
    # and rescaled by alpha in the masked one only
    name = "l11_attention_wrong_acc_rescale_only_in_masked_branch.py"
    diag = first(verify(worker, "11/attention", name))
    assert diag.get("line") == line_of(name, "acc = tl.dot(p.to(v.dtype), v, acc)", nth=2), diag
    assert diag["rescale"]["slip"] == "one-branch" and diag["rescale"]["name"] == "acc", diag
    assert diag["rescale"]["rescaled_line"] == line_of(name, "acc = acc * alpha[:, None]"), diag


def test_a_transposed_partial_read_is_not_called_a_formula(worker):
    # stage 2 reads partial[cols * P + p] (a [N, P] layout) while stage 1 wrote [P, N] (p * N + cols): every
    # partial is read once, into the wrong column; the formula is right (memcheck `layout_reads`)
    name = "l12_rms_backward_wrong_stage2_reads_partials_column_major.py"
    result = verify(worker, "12/rms-norm-backward", name)
    firsts = [c["diagnoses"][0] for c in result["cases"] if not c["passed"] and c.get("diagnoses")]
    assert not any(d.get("cause") == "all-wrong" for d in firsts), [d.get("message") for d in firsts]
    assert all(d.get("cause") == "partials-transposed" for d in firsts), [d.get("message") for d in firsts]
    assert all(d.get("line") == line_of(name, "partial_dw_ptr + cols * P + p") for d in firsts), firsts
    assert firsts[0]["store_line"] == line_of(name, "tl.store(partial_dw_ptr + pid * N + cols"), firsts[0]
    # its twin (the same stage 1, stage 2 reading p * N + cols in two accumulators) passes: test_correct_files_pass


def test_a_recomputed_rstd_is_named(worker):
    # the backward never reads the forward's rstd (it is not saved) and recomputes it at line 55 from the
    # centred variance: the kernel's own rstd line, beside the forward's formula (line 25)
    name = "l12_rms_backward_wrong_rstd_recomputed_with_centred_variance.py"
    diag = first(verify(worker, "12/rms-norm-backward", name))
    assert diag.get("cause") == "stat-recomputed", diag
    assert diag.get("line") == line_of(name, "rstd = tl.rsqrt(tl.sum(xc * xc"), diag
    assert diag.get("forward_line") == line_of(name, "rstd = tl.rsqrt(tl.sum(x * x"), diag


def test_a_right_recomputed_rstd_passes_without_that_cause(worker, tmp_path):
    # the held-out twin: the same file with the mean square (the forward's formula) in the dx kernel passes
    wrong = (PROBES / "l12_rms_backward_wrong_rstd_recomputed_with_centred_variance.py").read_text()
    assert "rstd = tl.rsqrt(tl.sum(xc * xc, axis=0) / N + eps)" in wrong
    right = tmp_path / "l12_rms_backward_ok_rstd_recomputed_as_the_forward.py"
    right.write_text(wrong.replace("tl.sum(xc * xc, axis=0)", "tl.sum(x * x, axis=0)"))
    result = worker.request("verify", {"exercise": "12/rms-norm-backward", "file": str(right)}, timeout=600)
    assert result["passed"], result.get("summary")
    causes = [d.get("cause") for c in result["cases"] for d in c.get("diagnoses") or []]
    assert "stat-recomputed" not in causes, causes


def test_a_group_size_from_the_wrong_dimension_is_not_called_a_floor_count(worker):
    # was "group_size_m comes from group_id = tile_id // num_pid_in_group … count tiles with tl.cdiv": a //
    # counts blocks only by a block size (verify._floor_count); the prefix names the divisor's own line instead
    name = "l13_persistent_matmul_wrong_group_size_uses_num_pid_m.py"
    diag = first(verify(worker, "13/persistent-matmul", name))
    assert diag["zero_division"]["made_line"] == line_of(name, "group_size_m = min("), diag
    assert "count tiles with tl.cdiv" not in diag["message"], diag["message"]
    assert "a floor division that is 0 when the size is below the block" not in diag["message"], diag[
        "message"
    ]


def test_a_rescale_in_the_other_base_is_named(worker):
    # was loop-steps with no line, then all-wrong on the larger cases: verify._mixed_base finds tl.exp and
    # tl.exp2 of m_new's differences in one loop; the file's other exp2 (after the loop) makes exp the odd one
    name = "l14_cross_entropy_wrong_terms_in_base2_rescale_in_natural_exp.py"
    result = verify(worker, "14/cross-entropy", name)
    firsts = [c["diagnoses"][0] for c in result["cases"] if not c["passed"] and c.get("diagnoses")]
    assert all(d.get("line") == line_of(name, "s = s * tl.exp(m - m_new)") for d in firsts), firsts
    assert all(d.get("cause") == "loop-steps" for d in firsts), firsts
    assert firsts[0]["rescale"]["base"] == "exp" and firsts[0]["rescale"]["other"] == "exp2", firsts[0]


def test_an_exp2_without_log2e_is_named(worker):
    # was all-wrong with no line (finding 5): verify._exp2_without_log2e, the file has no trace of log2(e)
    name = "l14_swiglu_wrong_exp2_sigmoid_without_log2e.py"
    diag = first(verify(worker, "14/swiglu", name))
    assert diag.get("line") == line_of(name, "tl.exp2(-a)"), diag
