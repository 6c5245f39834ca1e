"""Probe round 6, lessons 11-14: held-out learner files for the online softmax, FlashAttention forward, the RMS norm
backward and its registration as operators, and the three capstones (SwiGLU, SwiGLU backward, cross-entropy), written
from the lesson texts, lesson.toml and the starters (not from kernels/), none of them tried by rounds 1-5.

Correct-but-different files (each chunk reduced to its own (max, sum) then merged, a lazy rescale, a running
log-sum-exp in m, chunks walked backwards; K loaded as rows and transposed in the dot, a FlashAttention-4 style lazy
max, key blocks walked backwards with a -inf guard, query blocks reversed with 64 x 16 tiles, an unclamped causal
masked_end; stage 2 as torch's partial.sum(0), rstd recomputed with eps, dw by a column kernel, two rows a step;
setup_context by indexing, torch.library.register_autograd by name, grid lambdas, the op's outputs by index;
sigmoid as 1 / (1 + exp(-a)), a flat output viewed back, int64 offsets, one program a row; the expanded d silu, two
backward kernels, fp32 grads cast in the wrapper, needs_input_grad, a trailing None gradient; a base-2 chunked
logsumexp, ignore_index, the target logit loaded separately, a grid-stride loop over rows) must pass.
Realistic wrong files (the chunk's terms against the old max, the chunk max taken as the running max, a base-e
rescale; alpha after m_i = m_new, the causal condition flipped, the scale applied twice, no sequence-end mask, l not
rescaled, key blocks reversed without a guard; the mean over BLOCK_N, dw from partial[0], y saved for x, dx without
its outer rstd; another namespace, the backward not an operator, y saved in setup_context, no register_autograd, a
raw launch inside the triton_op; a mask against N, a float32 output, a floor grid, the gate on b, no dtype check;
d sigmoid for d silu, da without b, db without a; the target loaded with the logits' row stride, padding summed in,
the sign flipped, lse without its max, lanes merged without a rescale, an int32 row offset) must fail, and the first
diagnosis must name the real cause (and the learner's line where the lab gives one). Tests marked xfail state the
RIGHT verdict where the lab is wrong or misleading today; strict, so they fail loudly once fixed.
"""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round6_11_14"

OS, AT = "11/online-softmax", "11/attention"
RB, RO = "12/rms-norm-backward", "12/rms-norm-op"
SW, SB, CE = "14/swiglu", "14/swiglu-backward", "14/cross-entropy"


_CACHE: dict = {}


def verify(worker, exercise, name):
    key = (exercise, name)
    if key not in _CACHE:  # several tests read one verdict: verify each file once per module
        _CACHE[key] = worker.request(
            "verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600
        )
    return _CACHE[key]


def kinds(case) -> set:
    return {d["kind"] for d in case["diagnoses"]}


def failed(result) -> list:
    return [c for c in result["cases"] if not c["passed"]]


def public_failed(result) -> list:
    """Failing fixed cases (the random case of each verify has a secret size: left out of the exact checks)."""
    return [c for c in failed(result) if "random" not in c["name"] and c.get("kind") != "reject"]


def first_diag(result) -> dict:
    cases = failed(result)
    assert cases, "expected a failing case"
    return cases[0]["diagnoses"][0]


def first_message(result) -> str:
    if result.get("error"):
        return result["error"]["message"]
    return first_diag(result)["message"]


def line_of(name, snippet) -> int:
    lines = (PROBES / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if snippet in line)


def outputs_named(result) -> set:
    """The gradient-mode outputs (out, grad_x, grad_w, grad_a, grad_b) that the failing cases' diagnoses name."""
    return {d.get("output") for c in failed(result) for d in c["diagnoses"]}


def assert_fails(result):
    assert not result["passed"], "a wrong file passed"


# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    (CE, "l14_cross_entropy_ok_contiguous_copy_first.py"),
    (OS, "l11_online_softmax_ok_chunk_stats_merged.py"),
    (OS, "l11_online_softmax_ok_lazy_rescale.py"),
    (OS, "l11_online_softmax_ok_log_sum_state.py"),
    (OS, "l11_online_softmax_ok_reverse_chunks.py"),
    (AT, "l11_attention_ok_k_rows_transposed_in_dot.py"),
    (AT, "l11_attention_ok_lazy_max_threshold.py"),
    (AT, "l11_attention_ok_key_blocks_reversed_guarded.py"),
    (AT, "l11_attention_ok_query_blocks_reversed_64x16.py"),
    (AT, "l11_attention_ok_causal_masked_end_unclamped.py"),
    (RB, "l12_rms_backward_ok_stage2_torch_sum.py"),
    (RB, "l12_rms_backward_ok_rstd_recomputed_with_eps.py"),
    (RB, "l12_rms_backward_ok_dw_column_kernel.py"),
    (RB, "l12_rms_backward_ok_two_rows_per_step.py"),
    (RO, "l12_rms_op_ok_setup_context_indexing.py"),
    (RO, "l12_rms_op_ok_library_register_autograd_by_name.py"),
    (RO, "l12_rms_op_ok_grid_lambda_and_ctx_eps.py"),
    (RO, "l12_rms_op_ok_returns_tuple_of_grads_for_all.py"),
    (SW, "l14_swiglu_ok_recip_exp_sigmoid.py"),
    (SW, "l14_swiglu_ok_flat_out_view_as.py"),
    (SW, "l14_swiglu_ok_int64_offsets_big_block.py"),
    (SW, "l14_swiglu_ok_row_programs_col_loop.py"),
    (SB, "l14_swiglu_backward_ok_expanded_dsilu_recip.py"),
    (SB, "l14_swiglu_backward_ok_two_backward_kernels.py"),
    (SB, "l14_swiglu_backward_ok_fp32_grads_cast_in_wrapper.py"),
    (SB, "l14_swiglu_backward_ok_needs_input_grad.py"),
    (SB, "l14_swiglu_backward_ok_trailing_none_grad.py"),
    (CE, "l14_cross_entropy_ok_base2_chunk_lse.py"),
    (CE, "l14_cross_entropy_ok_target_logit_separate_load.py"),
    (CE, "l14_cross_entropy_ok_ignore_index_guard.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


def test_cross_entropy_grid_stride_rows_with_int64_cast_passes(worker):
    result = verify(worker, CE, "l14_cross_entropy_ok_grid_stride_rows.py")
    assert result.get("error") is None, result.get("error")
    assert result["passed"]


# --- lesson 11: online softmax ----------------------------------------------------------------------------------------


def test_online_softmax_terms_against_old_max_fails_even_for_one_value(worker):
    result = verify(worker, OS, "l11_online_softmax_wrong_exp_before_max_update.py")
    assert_fails(result)
    assert public_failed(result)[0]["params"] == {"M": 1, "N": 1}
    assert first_diag(result)["kind"] in ("mismatch", "nan")


def test_online_softmax_terms_against_old_max_streamed_names_the_running_max(worker):
    """With padding lanes (BLOCK_SIZE=64) the NaN diagnosis names the running max still -inf."""
    result = verify(worker, OS, "l11_online_softmax_wrong_exp_before_max_update.py")
    streamed = [c for c in public_failed(result) if c["kwargs"].get("BLOCK_SIZE") == 64]
    assert streamed and "running max" in streamed[0]["diagnoses"][0]["message"]


def test_online_softmax_chunk_max_not_running_fails(worker):
    """Once a false pass: the lab's falling_row (row 1: first half near +100, the rest near -100) lets a chunk
    max that is not carried fall, and exp2(m - m_new) overflows; the verdict names the running max."""
    result = verify(worker, OS, "l11_online_softmax_wrong_chunk_max_not_running.py")
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "nan" and diag.get("rows") == [1] and "running max" in diag["message"], diag


def test_online_softmax_base_e_rescale_fails_only_streamed_as_a_row_factor(worker):
    result = verify(worker, OS, "l11_online_softmax_wrong_rescale_natural_exp.py")
    bad = public_failed(result)
    assert bad and all(c["kwargs"].get("BLOCK_SIZE") == 64 for c in bad)
    diag = first_diag(result)
    assert diag["cause"] == "row-scaled" and "rescale" in diag["message"], diag


# --- lesson 11: attention ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["l11_attention_wrong_alpha_after_max_update.py", "l11_attention_wrong_l_not_rescaled.py"]
)
def test_attention_missing_rescale_fails_only_with_several_key_blocks(worker, name):
    result = verify(worker, AT, name)
    bad = public_failed(result)
    assert bad and all(c["params"]["S"] > c["meta"]["BLOCK_N"] for c in bad)
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and "rescale" in diag["message"], diag


def test_attention_flipped_causal_condition_fails_only_causal(worker):
    result = verify(worker, AT, "l11_attention_wrong_causal_mask_upper_triangle.py")
    bad = public_failed(result)
    assert bad and all(c["kwargs"].get("causal") for c in bad)
    diag = first_diag(result)
    assert diag.get("cause") == "variant-only" and "causal" in diag["message"], diag


def test_attention_scale_applied_twice_fails_every_variant(worker):
    result = verify(worker, AT, "l11_attention_wrong_scale_applied_twice.py")
    bad = public_failed(result)
    assert {bool(c["kwargs"].get("causal")) for c in bad} == {False, True}
    assert first_diag(result)["kind"] == "mismatch"


def test_attention_scale_applied_twice_names_the_scale(worker):
    result = verify(worker, AT, "l11_attention_wrong_scale_applied_twice.py")
    message = first_message(result)
    assert any(w in message for w in ("scale", "sm_scale", "qk_scale")), message
    # every failing case, causal or not, is the reference at another scale: the softmax too flat
    for case in public_failed(result):
        diag = case["diagnoses"][0]
        assert diag.get("cause") == "scale" and "flatter" in diag["message"], (case["name"], diag)


def test_attention_no_sequence_end_mask_fails_only_non_causal(worker):
    result = verify(worker, AT, "l11_attention_wrong_no_seq_len_mask.py")
    bad = public_failed(result)
    assert bad and not any(
        c["kwargs"].get("causal") for c in bad
    )  # causal masks cols > rows, past the end too


def test_attention_no_sequence_end_mask_names_the_padding_keys(worker):
    result = verify(worker, AT, "l11_attention_wrong_no_seq_len_mask.py")
    message = first_message(result)
    assert first_diag(result).get("cause") == "padding-counted", message
    assert "divide by N" not in message and any(
        w in message for w in ("seq_len", "padding", "past the end")
    ), message


def test_attention_key_blocks_reversed_without_guard_is_nan_only_causal(worker):
    result = verify(worker, AT, "l11_attention_wrong_key_blocks_reversed.py")
    bad = public_failed(result)
    assert bad and all(c["kwargs"].get("causal") for c in bad)
    assert first_diag(result)["kind"] == "nan"


def test_attention_key_blocks_reversed_names_the_all_masked_rows(worker):
    result = verify(worker, AT, "l11_attention_wrong_key_blocks_reversed.py")
    message = first_message(result)
    assert first_diag(result).get("cause") == "masked-block", message
    assert "causal" in message or "-inf" in message, message


# --- lesson 12: RMS norm backward -------------------------------------------------------------------------------------


def test_rms_backward_mean_over_block_n_breaks_grad_x_only(worker):
    result = verify(worker, RB, "l12_rms_backward_wrong_mean_over_block_n.py")
    assert_fails(result)
    assert outputs_named(result) == {"grad_x"}


def test_rms_backward_mean_over_block_n_names_the_mean(worker):
    result = verify(worker, RB, "l12_rms_backward_wrong_mean_over_block_n.py")
    message = first_message(result)
    assert first_diag(result).get("cause") == "along-input", message
    assert "BLOCK_N" in message or "mean" in message, message


def test_rms_backward_dw_from_first_partial_breaks_grad_w_only(worker):
    result = verify(worker, RB, "l12_rms_backward_wrong_dw_from_first_partial.py")
    assert_fails(result)
    assert outputs_named(result) == {"grad_w"}


def test_rms_backward_dw_from_first_partial_names_the_partials(worker):
    message = first_message(verify(worker, RB, "l12_rms_backward_wrong_dw_from_first_partial.py"))
    assert "is the result stored" not in message and any(
        w in message for w in ("partial", "stage", "program")
    ), message


def test_rms_backward_saving_y_breaks_both_gradients_not_the_output(worker):
    result = verify(worker, RB, "l12_rms_backward_wrong_saves_output.py")
    assert_fails(result)
    assert outputs_named(result) == {"grad_x", "grad_w"}


def test_rms_backward_dx_without_outer_rstd_is_an_all_wrong_grad_x(worker):
    result = verify(worker, RB, "l12_rms_backward_wrong_dx_missing_outer_rstd.py")
    diag = first_diag(result)
    assert diag["output"] == "grad_x" and diag.get("cause") == "all-wrong", diag
    assert outputs_named(result) == {"grad_x"}


# --- lesson 12: RMS norm operators ------------------------------------------------------------------------------------


def test_rms_op_other_namespace_names_the_required_operator(worker):
    result = verify(worker, RO, "l12_rms_op_wrong_other_namespace.py")
    diag = first_diag(result)
    assert diag["kind"] == "op-not-used" and "tritonlab_l12::rms_norm_fwd" in diag["message"], diag


def test_rms_op_backward_not_an_operator_names_rms_norm_bwd(worker):
    result = verify(worker, RO, "l12_rms_op_wrong_backward_not_an_op.py")
    diag = first_diag(result)
    assert diag["kind"] == "op-not-used" and "rms_norm_bwd" in diag["message"], diag


def test_rms_op_setup_context_saving_y_breaks_the_gradients_only(worker):
    result = verify(worker, RO, "l12_rms_op_wrong_setup_context_saves_y.py")
    assert_fails(result)
    assert outputs_named(result) == {"grad_x", "grad_w"}


def test_rms_op_without_register_autograd_says_so(worker):
    result = verify(worker, RO, "l12_rms_op_wrong_no_register_autograd.py")
    assert_fails(result)
    assert "register_autograd" in first_message(result)


def test_rms_op_kernel_not_wrapped_is_flagged_on_the_interpreter(worker):
    # a bare rms_norm_fwd_kernel[grid](...) inside the triton_op: eagerly the same launch, but torch.compile cannot
    # trace it; the runner sees the launch inside the operator's body without wrap_triton (engine/op_launches.py)
    name = "l12_rms_op_wrong_kernel_not_wrapped.py"
    result = verify(worker, RO, name)
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "kernel-not-wrapped", diag
    assert diag["kernel"] == "rms_norm_fwd_kernel" and diag["op"] == "tritonlab_l12::rms_norm_fwd", diag
    assert diag["line"] == line_of(name, "rms_norm_fwd_kernel[(M,)](")
    assert "wrap_triton(rms_norm_fwd_kernel)[grid](...)" in diag["message"], diag
    assert all(kinds(c) == {"kernel-not-wrapped"} for c in failed(result)), [kinds(c) for c in failed(result)]


# --- lesson 14: SwiGLU ------------------------------------------------------------------------------------------------


def test_swiglu_mask_against_n_leaves_later_rows_unwritten(worker):
    result = verify(worker, SW, "l14_swiglu_wrong_mask_uses_n_cols.py")
    assert first_diag(result)["kind"] == "unwritten"


def test_swiglu_mask_against_n_names_the_mask(worker):
    message = first_message(verify(worker, SW, "l14_swiglu_wrong_mask_uses_n_cols.py"))
    assert "row axis" not in message and "mask" in message, message


def test_swiglu_float32_output_is_a_dtype_diagnosis(worker):
    assert first_diag(verify(worker, SW, "l14_swiglu_wrong_output_float32.py"))["kind"] == "wrong-dtype"


def test_swiglu_floor_grid_leaves_the_tail_unwritten(worker):
    result = verify(worker, SW, "l14_swiglu_wrong_grid_floor_div.py")
    assert first_diag(result)["kind"] == "unwritten"


def test_swiglu_floor_grid_names_the_grid(worker):
    message = first_message(verify(worker, SW, "l14_swiglu_wrong_grid_floor_div.py"))
    assert "grid" in message or "cdiv" in message, message


def test_swiglu_gate_on_b_is_all_wrong(worker):
    diag = first_diag(verify(worker, SW, "l14_swiglu_wrong_gate_on_b.py"))
    assert diag.get("cause") == "all-wrong" and "argument order" in diag["message"], diag


def test_swiglu_without_dtype_check_fails_the_reject(worker):
    result = verify(worker, SW, "l14_swiglu_wrong_no_dtype_check.py")
    bad = failed(result)
    assert len(bad) == 1 and bad[0].get("kind") == "reject"
    assert "float32" in bad[0]["diagnoses"][0]["message"]


# --- lesson 14: SwiGLU backward ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, output",
    [
        ("l14_swiglu_backward_wrong_sigmoid_derivative_only.py", "grad_a"),
        ("l14_swiglu_backward_wrong_da_missing_b.py", "grad_a"),
        ("l14_swiglu_backward_wrong_db_missing_a.py", "grad_b"),
    ],
)
def test_swiglu_backward_wrong_formula_names_its_gradient_only(worker, name, output):
    result = verify(worker, SB, name)
    diag = first_diag(result)
    assert diag["output"] == output and diag.get("cause") == "all-wrong", diag
    assert outputs_named(result) == {output}


# --- lesson 14: cross-entropy -----------------------------------------------------------------------------------------


def test_cross_entropy_target_loaded_with_row_stride_stops_at_the_load(worker):
    name = "l14_cross_entropy_wrong_target_load_uses_row_offset.py"
    result = verify(worker, CE, name)
    error = result["error"]
    assert error["kind"] == "oob" and error["line"] == line_of(
        name, "    target = tl.load(target_ptr + row * stride_m)"
    )
    assert "target_ptr" in error["message"] and "stride_m" in error["message"]


def test_cross_entropy_padding_summed_in_fails_when_v_is_not_a_block(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_padding_not_excluded.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["V"] == 300 for c in bad)  # BLOCK_V 512: 212 padding lanes


def test_cross_entropy_padding_summed_in_names_the_padding(worker):
    message = first_message(verify(worker, CE, "l14_cross_entropy_wrong_padding_not_excluded.py"))
    assert "fp16" not in message and any(w in message for w in ("padding", "mask", "other=")), message


def test_cross_entropy_sign_flipped_is_a_factor_of_minus_one(worker):
    diag = first_diag(verify(worker, CE, "l14_cross_entropy_wrong_sign_flipped.py"))
    assert diag.get("cause") == "scaled" and "-1" in diag["message"], diag


@pytest.mark.parametrize(
    "name",
    ["l14_cross_entropy_wrong_lse_missing_max.py", "l14_cross_entropy_wrong_lanes_merged_without_rescale.py"],
)
def test_cross_entropy_broken_logsumexp_fails(worker, name):
    result = verify(worker, CE, name)
    assert_fails(result)
    assert first_diag(result)["kind"] == "mismatch"


def test_cross_entropy_int32_row_offset_fails_on_the_far_rows_case(worker):
    """The far_rows contract's case: logits' rows 2**30 elements apart, so row 2 starts at element 2**31 and
    `row * stride_m` in int32 wraps to -2**31; the bounds checker names the load and the wrap."""
    name = "l14_cross_entropy_wrong_int32_row_offset.py"
    result = verify(worker, CE, name)
    bad = failed(result)
    assert bad and all("@far_rows" in (c.get("kwargs") or {}) for c in bad), [c["name"] for c in bad]
    diag = bad[0]["diagnoses"][0]
    assert diag["kind"] == "oob" and diag["line"] == line_of(name, "x = tl.load(row_ptr + start + cols")
    wrap = diag["detail"]["int32_wrap"]
    assert wrap == {"offset": 2**31, "row": 2, "row_stride": 2**30}, wrap
    assert "int32" in diag["message"] and "int64" in diag["message"], diag["message"]


def test_cross_entropy_rows_stepped_by_width_fail_on_the_far_rows_case(worker):
    """False-pass guard: a kernel that steps rows by V (ignoring logits.stride(0)) passes every contiguous
    case; on the far-rows view it reads between the rows."""
    name = "l14_cross_entropy_wrong_rows_stepped_by_width.py"
    result = verify(worker, CE, name)
    bad = failed(result)
    assert bad and all("@far_rows" in (c.get("kwargs") or {}) for c in bad), [c["name"] for c in bad]
    diag = bad[0]["diagnoses"][0]
    assert diag["kind"] == "oob" and diag["detail"]["reason"] == "gap", diag
    assert diag["line"] == line_of(name, "x = tl.load(row_ptr + start + cols")
