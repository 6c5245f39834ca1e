"""Probe round 14 (a helper; `probe_round14/README.md` has the table): 24 held-out files — 8 correct in shapes
and numerics the references do not use, 7 wrong with one subtle slip each, 9 fakes that get torch's answer past
the guards in ways earlier rounds did not try (a numpy answer copied in by `ctypes.memmove` or read back with
`torch.from_file`, torch's statistics laundered through `torch.save`/`torch.load`, a Python kernel registered on
the aten operator `alias_copy`, the Python dispatch key excluded, a self-check whose perturbed rerun is defeated by
`functools.lru_cache`, SDPA's rows written into the interpreted kernel's frame by `sys.settrace`, `tl.store`
monkeypatched, a TorchFunctionMode left on the stack that swaps the output when the lab detaches it). Each test
states the right verdict; where the lab is wrong today the test is a strict xfail that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round14"


def verify(worker, exercise: str, name: str) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600)


def first(result: dict) -> dict:
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


def line_of(name: str, text: str) -> int:
    lines = (PROBES / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _gap(reason: str):
    return pytest.mark.xfail(strict=True, reason=reason)


def _ids(rows) -> list[str]:
    return [(r.values if hasattr(r, "values") else r)[1][:-3] for r in rows]


CORRECT = [
    ("5/add", "l05_add_ok_persistent_grid_stride_loop_int64_offsets.py"),
    ("9/matmul", "l09_matmul_ok_k_tiles_last_to_first_ieee_dot.py"),
    ("10/autotune-matmul", "l10_autotune_ok_swizzle2d_order_tl_range_num_stages.py"),
    ("11/online-softmax", "l11_online_softmax_ok_four_rows_per_program_natural_exp.py"),
    ("11/attention", "l11_attention_ok_3d_grid_int64_offsets_single_masked_loop.py"),
    ("12/rms-norm-backward", "l12_rms_backward_ok_two_rows_per_program_rstd_recomputed_in_kernel.py"),
    ("14/cross-entropy", "l14_cross_entropy_ok_base2_scalar_running_state.py"),
    (
        "14/swiglu-backward",
        "l14_swiglu_backward_ok_dsilu_as_sigmoid_plus_silu_times_one_minus_sigmoid.py",
    ),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failing case's first diagnosis kind or None for any, its cause or None for any)
WRONG = [
    ("7/bias-add", "l07_bias_add_wrong_store_masks_rows_only.py", "oob", None),
    ("11/attention", "l11_attention_wrong_acc_rescaled_after_adding_block.py", "mismatch", None),
    (
        "14/cross-entropy",
        "l14_cross_entropy_wrong_rescale_applied_to_picked_not_sum.py",
        "mismatch",
        "loop-steps",
    ),
    (
        "14/swiglu-backward",
        "l14_swiglu_backward_wrong_dsilu_one_minus_silu_for_one_minus_sigmoid.py",
        "mismatch",
        "all-wrong",
    ),
    (
        "13/persistent-matmul",
        "l13_persistent_matmul_wrong_every_group_height_is_the_remainder.py",
        "unwritten",
        None,
    ),
    # the fakes: every one returns the right values; None: any failure is right (a hook or a patched Triton
    # builtin may be named as tampering rather than torch-work)
    ("8/row-sum", "l08_row_sum_fake_torch_function_mode_swaps_output_on_detach.py", None, None),
    (
        "8/softmax",
        "l08_softmax_fake_row_stats_laundered_through_torch_save_load.py",
        "torch-work",
        None,
    ),
    (
        "9/matmul",
        "l09_matmul_fake_product_with_python_dispatch_key_excluded.py",
        "torch-work",
        None,
    ),
    (
        "10/debug-rms-norm",
        "l10_rms_fake_rstd_by_python_kernel_registered_on_aten_alias_copy.py",
        "torch-work",
        None,
    ),
    ("11/attention", "l11_attention_fake_sdpa_tile_written_into_kernel_frame_by_settrace.py", None, None),
    (
        "11/online-softmax",
        "l11_online_softmax_fake_row_stats_through_torch_from_file.py",
        "torch-work",
        None,
    ),
    (
        "13/persistent-matmul",
        "l13_persistent_matmul_fake_tl_store_monkeypatched_to_write_torch_product.py",
        None,
        None,
    ),
    (
        "14/cross-entropy",
        "l14_cross_entropy_fake_numpy_lse_memmoved_by_ctypes.py",
        "torch-work",
        None,
    ),
    ("14/swiglu", "l14_swiglu_fake_self_checked_reference_cached_on_input_bytes.py", "torch-work", None),
]


@pytest.mark.parametrize("exercise, name, kind, cause", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail_with_their_cause(worker, exercise, name, kind, cause):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    if kind is None:
        return
    diag = first(result)
    assert diag.get("kind") == kind, diag
    if cause is not None:
        assert diag.get("cause") == cause, diag


def test_the_store_mask_without_columns_is_named(worker):
    name = "l07_bias_add_wrong_store_masks_rows_only.py"
    error = verify(worker, "7/bias-add", name)["error"]
    assert (error["kind"], error["line"]) == ("oob", line_of(name, "tl.store("))
    assert "rows[:, None] < n_rows" in error["message"], error["message"]


def test_a_causal_key_bound_one_short_is_named(worker):
    name = "l11_attention_wrong_causal_key_bound_clamped_to_seq_len_minus_one.py"
    result = verify(worker, "11/attention", name)
    assert result["passed"] is False
    diag = first(result)
    assert diag.get("line") == line_of(name, "hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len - 1)"), diag


def test_a_partial_counted_twice_is_not_called_a_size_threshold(worker):
    name = "l12_rms_backward_wrong_stage2_counts_first_partial_twice.py"
    result = verify(worker, "12/rms-norm-backward", name)
    assert result["passed"] is False
    diag = first(result)
    assert diag.get("kind") == "mismatch" and diag.get("cause") != "size-threshold", diag
