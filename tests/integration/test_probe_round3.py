"""Probe round 3: more held-out-style learner files for lessons 4-10, judged as a demanding teacher would.

Correct-but-different files (early exits, tl.where, int64 offsets, tuple grids, two blocks per program, launch
options through a dict, while loops, swapped grid axes, 1D grids over 2D tiles, several rows per program,
keep_dims reductions, tl.range over K, itertools-built autotune spaces) must pass. Realistic wrong files must fail,
and the first diagnosis must name the real cause (and the learner's line where the lab gives one). Tests marked
xfail state the RIGHT verdict where the lab is wrong or misleading today; strict, so they fail loudly once fixed.
The report with the lab's verdict for every file was kept outside the repo and is lost; the tests state each verdict.
"""

import re
from pathlib import Path

import pytest

from tritonlab.present.verify import summary

PROBES = Path(__file__).parent / "probe_round3"


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


def stops_at(result, kind, name, snippet) -> dict:
    """The verify stopped at an error of this kind on the learner's line that contains snippet."""
    assert not result["passed"]
    error = result.get("error")
    assert error is not None and error["kind"] == kind, error
    assert error["line"] == line_of(name, snippet), (error["line"], error["message"])
    return error


# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    ("4/scale-shift", "l04_scale_shift_ok_early_exit.py"),
    ("4/fix-oob", "l04_fix_oob_ok_where_relu.py"),
    ("4/runtime-shape", "l04_runtime_shape_ok_floor_plus_one.py"),
    ("5/add", "l05_add_ok_int64_tuple_grid.py"),
    ("6/copy", "l06_copy_ok_two_blocks_static_range.py"),
    ("6/copy", "l06_copy_ok_launch_options_dict.py"),
    ("6/fma-chain", "l06_fma_chain_ok_while_loop.py"),
    ("7/copy-2d", "l07_copy_2d_ok_swapped_grid_axes.py"),
    ("7/transpose", "l07_transpose_ok_1d_grid_int64.py"),
    ("7/bias-add", "l07_bias_add_ok_bias_row_2d.py"),
    ("8/row-sum", "l08_row_sum_ok_rows_tile.py"),
    ("8/softmax", "l08_softmax_ok_where_pad.py"),
    ("8/softmax-rows", "l08_softmax_rows_ok_keep_dims.py"),
    ("9/matmul", "l09_matmul_ok_acc_plus_dot_trange.py"),
    ("9/matmul-bias", "l09_matmul_bias_ok_where_relu.py"),
    ("10/debug-rms-norm", "l10_rms_ok_int64_rows_where.py"),
    ("10/autotune-matmul", "l10_autotune_ok_product_configs.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


# --- lesson 4 ---------------------------------------------------------------------------------------------------------


def test_scale_shift_mask_one_short_fails(worker):
    result = verify(worker, "4/scale-shift", "l04_scale_shift_wrong_mask_n_minus_1.py")
    assert not result["passed"]
    assert all(kinds(c) == {"unwritten"} for c in public_failed(result))


def test_scale_shift_mask_one_short_blames_the_mask(worker):
    result = verify(worker, "4/scale-shift", "l04_scale_shift_wrong_mask_n_minus_1.py")
    messages = [c["diagnoses"][0]["message"] for c in public_failed(result)]
    assert all("mask" in m and "tl.store pointer" not in m and "check the offsets" not in m for m in messages)


def test_scale_shift_swapped_scalars_is_all_wrong(worker):
    result = verify(worker, "4/scale-shift", "l04_scale_shift_wrong_a_b_swapped.py")
    assert len(failed(result)) == len(result["cases"])
    diag = first_diag(result)
    assert (diag["kind"], diag.get("cause")) == ("mismatch", "all-wrong"), diag


def test_fix_oob_other_without_mask_stops_at_the_load(worker):
    name = "l04_fix_oob_wrong_other_without_mask.py"
    error = stops_at(verify(worker, "4/fix-oob", name), "compile", name, "x = tl.load(")
    assert "mask" in error["message"]


def test_fix_oob_mask_against_block_size_names_the_mask(worker):
    name = "l04_fix_oob_wrong_mask_against_block.py"
    error = stops_at(verify(worker, "4/fix-oob", name), "oob", name, "x = tl.load(")
    assert "offsets < BLOCK_SIZE" in error["message"] and "x_ptr" in error["message"]


def test_runtime_shape_grid_hard_coded_to_1024_fails(worker):
    result = verify(worker, "4/runtime-shape", "l04_runtime_shape_wrong_grid_hardcoded_1024.py")
    assert not result["passed"]


# --- lesson 5 ---------------------------------------------------------------------------------------------------------


def test_add_unmasked_y_load_names_that_load(worker):
    name = "l05_add_wrong_y_load_unmasked.py"
    error = stops_at(verify(worker, "5/add", name), "oob", name, "y = tl.load(")
    assert "y_ptr" in error["message"] and "no mask" in error["message"]


def test_add_device_checked_against_cuda_stops_at_the_raise(worker):
    name = "l05_add_wrong_device_vs_cuda.py"
    stops_at(verify(worker, "5/add", name), "runtime", name, "raise ValueError(")


def test_add_device_checked_against_cuda_explains_why(worker):
    message = first_message(verify(worker, "5/add", "l05_add_wrong_device_vs_cuda.py"))
    assert any(w in message for w in ("each other", "valid input", "same device")), message


def test_add_float32_output_is_a_dtype_error(worker):
    result = verify(worker, "5/add", "l05_add_wrong_output_default_dtype.py")
    assert failed(result) and all(c["dtype"] != "float32" for c in failed(result))
    assert first_diag(result)["kind"] == "wrong-dtype"


def test_add_checked_checks_after_the_launch_fail_every_reject(worker):
    result = verify(worker, "5/add-checked", "l05_add_checked_wrong_checks_after_launch.py")
    bad = failed(result)
    assert bad and all(c["name"].startswith("rejects") and kinds(c) == {"validation"} for c in bad)


def test_add_checked_checks_after_the_launch_says_too_late(worker):
    result = verify(worker, "5/add-checked", "l05_add_checked_wrong_checks_after_launch.py")
    case = next(c for c in failed(result) if c["name"] == "rejects y longer than x")
    message = case["diagnoses"][0]["message"]
    assert "inside the kernel" not in message and "after" in message, message


@pytest.mark.parametrize(
    "name, case",
    [
        (
            "l05_add_checked_wrong_float_kind_only.py",
            ["rejects dtype mismatch", "rejects same width, other dtype"],
        ),
        (
            "l05_add_checked_wrong_makes_contiguous.py",
            [
                "rejects non-contiguous input",
                "rejects non-contiguous x",
                "rejects both non-contiguous, same strides",
            ],
        ),
    ],
)
def test_add_checked_missing_one_refusal(worker, name, case):
    result = verify(worker, "5/add-checked", name)
    assert [(c["name"], kinds(c)) for c in failed(result)] == [(n, {"validation"}) for n in case]
    assert "accepted" in first_diag(result)["message"]


# --- lesson 6 ---------------------------------------------------------------------------------------------------------


def test_copy_grid_sized_for_1024_fails_with_smaller_blocks(worker):
    result = verify(worker, "6/copy", "l06_copy_wrong_grid_fixed_1024.py")
    assert failed(result) and all("BLOCK_SIZE=128" in c["name"] for c in failed(result))
    assert first_diag(result)["kind"] == "unwritten"


def test_copy_swapped_arguments_modify_the_input(worker):
    result = verify(worker, "6/copy", "l06_copy_wrong_args_swapped.py")
    assert len(failed(result)) == len(result["cases"])
    assert first_diag(result)["kind"] == "input-modified"


def test_fma_chain_static_range_of_a_runtime_value_fails(worker):
    # the interpreter runs static_range as range; a GPU's compiler refuses a runtime bound: the lab says so here
    name = "l06_fma_chain_wrong_static_range.py"
    result = verify(worker, "6/fma-chain", name)
    assert not result["passed"]
    error = result["error"]
    assert (
        error["kind"] == "compile" and error["cause"] == "static-range-runtime" and error["name"] == "degree"
    )
    assert error["line"] == line_of(name, "for _ in tl.static_range(degree)")
    from tritonlab.present.verify import summary

    assert "range(degree)" in summary(result, "en") and "tl.constexpr" in summary(result, "ja")


def test_fma_chain_adding_y_fails_from_degree_2(worker):
    result = verify(worker, "6/fma-chain", "l06_fma_chain_wrong_adds_y.py")
    assert failed(result) and all(c["params"]["degree"] >= 2 for c in failed(result))


def test_fma_chain_adding_y_is_not_called_a_size_limit(worker):
    diag = first_diag(verify(worker, "6/fma-chain", "l06_fma_chain_wrong_adds_y.py"))
    assert diag.get("cause") != "size-threshold" and "degree" in diag["message"], diag


def test_fma_chain_reading_the_output_fails(worker):
    result = verify(worker, "6/fma-chain", "l06_fma_chain_wrong_reads_output.py")
    assert len(failed(result)) == len(result["cases"])


def test_fma_chain_reading_the_output_names_the_load(worker):
    message = first_message(verify(worker, "6/fma-chain", "l06_fma_chain_wrong_reads_output.py"))
    assert "never stored" not in message and "output_ptr" in message, message


# --- lesson 7 ---------------------------------------------------------------------------------------------------------


def test_copy_2d_mask_without_columns_names_the_load(worker):
    name = "l07_copy_2d_wrong_mask_rows_only.py"
    error = stops_at(verify(worker, "7/copy-2d", name), "oob", name, "tile = tl.load(")
    assert "cols" in error["message"]


def test_copy_2d_output_through_x_strides_fails(worker):
    result = verify(worker, "7/copy-2d", "l07_copy_2d_wrong_out_x_strides.py")
    assert not result["passed"]
    assert first_diag(result)["kind"] == "mismatch"


def test_copy_2d_output_through_x_strides_names_the_strides(worker):
    message = first_message(verify(worker, "7/copy-2d", "l07_copy_2d_wrong_out_x_strides.py"))
    assert "stride" in message, message


def test_transpose_without_trans_names_tl_trans(worker):
    name = "l07_transpose_wrong_no_trans.py"
    error = stops_at(verify(worker, "7/transpose", name), "compile", name, "tl.store(out_ptrs")
    assert "tl.trans" in error["message"]


def test_transpose_output_shaped_like_x_fails(worker):
    result = verify(worker, "7/transpose", "l07_transpose_wrong_out_shape_like_x.py")
    assert not result["passed"]


def test_transpose_output_shaped_like_x_blames_the_allocation(worker):
    message = first_message(verify(worker, "7/transpose", "l07_transpose_wrong_out_shape_like_x.py"))
    assert "lets these lanes through" not in message and "shape" in message, message


def test_bias_add_storage_offset_added_fails_on_the_bias_load(worker):
    name = "l07_bias_add_wrong_storage_offset.py"
    stops_at(verify(worker, "7/bias-add", name), "oob", name, "b = tl.load(")


def test_bias_add_storage_offset_added_names_the_offset(worker):
    message = first_message(verify(worker, "7/bias-add", "l07_bias_add_wrong_storage_offset.py"))
    assert any(w in message for w in ("storage_offset", "b_offset", "data_ptr", "b[0]")), message


def test_bias_add_without_dtype_check_fails(worker):
    result = verify(worker, "7/bias-add", "l07_bias_add_wrong_no_dtype_check.py")
    assert not result["passed"]


# --- lesson 8 ---------------------------------------------------------------------------------------------------------


def test_row_sum_masked_load_without_other_fails(worker):
    # the checker fills the masked-off lanes of a load without other= with NaN (a GPU leaves them undefined)
    name = "l08_row_sum_wrong_no_other.py"
    result = verify(worker, "8/row-sum", name)
    assert not result["passed"]
    diag = first_diag(result)
    assert diag["kind"] == "nan" and diag["cause"] == "no-other", diag
    assert diag["line"] == line_of(name, "tl.load(")
    assert "other= がない" in summary(result, "ja")


def test_row_sum_output_indexed_with_x_stride_stops_at_the_store(worker):
    name = "l08_row_sum_wrong_store_scalar_to_every_row0.py"
    stops_at(verify(worker, "8/row-sum", name), "oob", name, "tl.store(output_ptr")


def test_row_sum_output_indexed_with_x_stride_names_the_stride(worker):
    message = first_message(verify(worker, "8/row-sum", "l08_row_sum_wrong_store_scalar_to_every_row0.py"))
    assert "pass mask=" not in message and "stride" in message, message


def test_softmax_without_other_fails_on_short_ragged_rows(worker):
    # padding lanes are NaN without other=: every row shorter than its block fails, never a full block
    result = verify(worker, "8/softmax", "l08_softmax_wrong_max_no_other.py")
    assert not result["passed"]
    bad = public_failed(result)
    assert bad and all(c["params"]["N"] & (c["params"]["N"] - 1) for c in bad)


def test_softmax_without_other_names_other(worker):
    message = first_message(verify(worker, "8/softmax", "l08_softmax_wrong_max_no_other.py"))
    assert "other" in message, message


def test_softmax_output_through_input_strides_fails(worker):
    result = verify(worker, "8/softmax", "l08_softmax_wrong_out_col_stride_input.py")
    assert not result["passed"]


def test_softmax_rows_sum_along_axis_0_fails(worker):
    result = verify(worker, "8/softmax-rows", "l08_softmax_rows_wrong_sum_axis0.py")
    assert not result["passed"]


def test_softmax_rows_sum_along_axis_0_is_not_called_a_missing_max(worker):
    result = verify(worker, "8/softmax-rows", "l08_softmax_rows_wrong_sum_axis0.py")
    message = first_message(result)
    assert "subtract the row max" not in message and "axis" in message, message
    assert first_diag(result)["cause"] == "nan-reduction"


def test_softmax_rows_floor_grid_names_cdiv(worker):
    result = verify(worker, "8/softmax-rows", "l08_softmax_rows_wrong_floor_grid.py")
    diag = first_diag(result)
    assert diag["kind"] == "unwritten" and "cdiv" in diag["message"], diag


# --- lesson 9 ---------------------------------------------------------------------------------------------------------


def test_matmul_a_mask_built_from_offs_n_stops_at_the_a_load(worker):
    name = "l09_matmul_wrong_a_mask_uses_n.py"
    stops_at(verify(worker, "9/matmul", name), "compile", name, "a = tl.load(")


def test_matmul_a_mask_built_from_offs_n_names_the_mask(worker):
    result = verify(worker, "9/matmul", "l09_matmul_wrong_a_mask_uses_n.py")
    assert "mask" in first_message(result), first_message(result)
    assert "stored" not in summary(result, "en")


def test_matmul_swapped_tile_indices_fail_unwritten(worker):
    result = verify(worker, "9/matmul", "l09_matmul_wrong_pid_swapped.py")
    assert not result["passed"]
    assert "unwritten" in kinds(public_failed(result)[0])


def test_matmul_swapped_tile_indices_do_not_blame_the_grid(worker):
    message = first_message(verify(worker, "9/matmul", "l09_matmul_wrong_pid_swapped.py"))
    assert "check the grid" not in message and "pid" in message, message


def test_matmul_unmasked_store_names_the_store(worker):
    name = "l09_matmul_wrong_store_unmasked.py"
    error = stops_at(verify(worker, "9/matmul", name), "oob", name, "tl.store(c_ptrs")
    assert "no mask" in error["message"]


def _block_k(case) -> int:
    found = re.search(r"BLOCK_K=(\d+)", case["name"])
    return int(found.group(1)) if found else 32  # the interpreter's default tile is 32 x 32 x 32


def test_matmul_b_advanced_along_n_fails_only_with_several_k_steps(worker):
    result = verify(worker, "9/matmul", "l09_matmul_wrong_b_advance_bn.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["K"] > _block_k(c) for c in bad)


def test_matmul_b_advanced_along_n_points_at_the_advance(worker):
    message = first_message(verify(worker, "9/matmul", "l09_matmul_wrong_b_advance_bn.py"))
    assert "K" in message and any(w in message for w in ("advance", "step", "b_ptrs")), message


def test_matmul_accumulator_started_at_one_fails(worker):
    result = verify(worker, "9/matmul", "l09_matmul_wrong_acc_ones.py")
    assert not result["passed"]
    assert first_diag(result)["kind"] == "mismatch"


def test_matmul_bias_unmasked_bias_names_the_load(worker):
    name = "l09_matmul_bias_wrong_bias_unmasked.py"
    error = stops_at(verify(worker, "9/matmul-bias", name), "oob", name, "bias = tl.load(")
    assert "bias_ptr" in error["message"]


def test_matmul_bias_silu_without_product_fails_only_for_silu(worker):
    result = verify(worker, "9/matmul-bias", "l09_matmul_bias_wrong_silu_no_mul.py")
    assert failed(result) and all("activation=silu" in c["name"] for c in failed(result))


def test_matmul_fast_even_k_from_n_names_the_promise(worker):
    name = "l09_matmul_fast_wrong_even_k_from_n.py"
    result = verify(worker, "9/matmul-fast", name)
    assert not result["passed"]
    assert result["error"]["kind"] == "oob" and "EVEN_K" in result["error"]["message"]


# --- lesson 10 --------------------------------------------------------------------------------------------------------


def test_rms_norm_store_with_x_row_stride_stops_at_the_store(worker):
    name = "l10_rms_wrong_store_x_row_stride.py"
    stops_at(verify(worker, "10/debug-rms-norm", name), "oob", name, "tl.store(y_ptr")


def test_rms_norm_store_with_x_row_stride_names_the_stride(worker):
    message = first_message(verify(worker, "10/debug-rms-norm", "l10_rms_wrong_store_x_row_stride.py"))
    assert "lets these lanes through" not in message and "stride" in message, message


def test_rms_norm_unmasked_weight_names_the_load(worker):
    name = "l10_rms_wrong_weight_unmasked.py"
    error = stops_at(verify(worker, "10/debug-rms-norm", name), "oob", name, "w = tl.load(")
    assert "w_ptr" in error["message"] and "no mask" in error["message"]


def test_rms_norm_second_load_is_a_bytes_problem(worker):
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_second_load_kept.py")
    assert failed(result) and all(kinds(c) == {"perf-bytes"} for c in failed(result))


def test_rms_norm_sum_cast_after_fp16_squares_fails_in_float16_only(worker):
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_fp32_only_sum.py")
    assert failed(result) and all(c["dtype"] == "float16" for c in public_failed(result))


def test_rms_norm_sum_cast_after_fp16_squares_names_fp16(worker):
    message = first_message(verify(worker, "10/debug-rms-norm", "l10_rms_wrong_fp32_only_sum.py"))
    assert any(w in message for w in ("float16", "fp16", "overflow")), message


def test_autotune_block_sizes_still_passed_stop_at_the_launch(worker):
    name = "l10_autotune_wrong_passes_block_sizes.py"
    stops_at(verify(worker, "10/autotune-matmul", name), "runtime", name, "matmul_kernel[grid](")


def test_autotune_block_sizes_still_passed_names_the_autotuner(worker):
    message = first_message(verify(worker, "10/autotune-matmul", "l10_autotune_wrong_passes_block_sizes.py"))
    assert "InterpretedFunction" not in message and "autotun" in message, message


def test_autotune_grid_with_swapped_blocks_fails_unwritten(worker):
    result = verify(worker, "10/autotune-matmul", "l10_autotune_wrong_grid_swapped_blocks.py")
    assert not result["passed"]
    assert "unwritten" in kinds(public_failed(result)[0])


def test_autotune_configs_with_tutorial_names_fail(worker):
    name = "l10_autotune_wrong_tutorial_key_names.py"
    result = verify(worker, "10/autotune-matmul", name)
    assert not result["passed"]
    assert result["error"]["kind"] == "runtime" and "BLOCK_K" in result["error"]["message"]
