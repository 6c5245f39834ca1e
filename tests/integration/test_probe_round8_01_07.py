"""Probe round 8, lessons 1-7: held-out learner files written from the lesson texts and the starters (not from
kernels/), none of them tried by rounds 1-7.

Correct-but-different files (float64 math with reshaped inputs, a bit-exact copy through an integer view, programs
laid out on grid axis 1, a fill kernel then an in-place accumulate kernel, a zero-padded input instead of a mask, a
block size picked per call from the input, one program per row walking its columns, x made contiguous before a
bias add) must pass.
Realistic wrong files (w and b swapped at the launch, sqrt(2/pi) scaling only x, a grid hard-coded from the Run
example, a per-program scalar mask, squares taken in float16, tl.where on a store's value instead of mask=, a wrapper
that refuses empty input, a shape check made of numel and ndim, BLOCK_SIZE clamped to 1024, the chain restarted in
each iteration, strides passed in bytes, program ids read on swapped axes, a transpose returned as a .t() view, b
masked against the row count) must fail, and the first diagnosis must name the real cause (and the learner's line
where the lab gives one). Three files try to fake a pass from inside the runner (torch.save replaced, Tensor.__ne__
replaced, a sys.setprofile hook editing the tensors about to be sent): they must fail too.
Tests marked xfail state the RIGHT verdict where the lab is wrong or misleading today; strict, so they fail loudly
once fixed.
"""

from pathlib import Path

import pytest

from tritonlab.present.diagnoses import describe
from tritonlab.present.verify import summary

PROBES = Path(__file__).parent / "probe_round8_01_07"

FG, CP, GT = "1/fused-gelu", "2/copy", "2/gelu-tanh"
PM, GS = "3/program-map", "3/grid-size"
SS, FO, RS = "4/scale-shift", "4/fix-oob", "4/runtime-shape"
AD, AC = "5/add", "5/add-checked"
C6, FM = "6/copy", "6/fma-chain"
C2, TR, BA = "7/copy-2d", "7/transpose", "7/bias-add"


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
    """Failing listed cases (the random case of each verify has a secret size: left out of the exact checks)."""
    return [c for c in failed(result) if "random" not in c["name"] and c.get("kind") != "reject"]


def public_passed(result) -> list:
    return [
        c for c in result["cases"] if c["passed"] and "random" not in c["name"] and c.get("kind") != "reject"
    ]


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
    assert not result["passed"], "a wrong file passed"
    error = result.get("error")
    assert error is not None and error["kind"] == kind, error
    assert error["line"] == line_of(name, snippet), (error["line"], error["message"])
    return error


def assert_fails(result):
    assert not result["passed"], "a wrong file passed"


# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    (FG, "l01_fused_gelu_ok_float64_math.py"),
    (CP, "l02_copy_ok_bits_through_int_view.py"),
    (PM, "l03_program_map_ok_programs_on_axis1.py"),
    (SS, "l04_scale_shift_ok_fill_then_accumulate.py"),
    (FO, "l04_fix_oob_ok_padded_input_copy.py"),
    (AD, "l05_add_ok_block_sized_to_input.py"),
    (C2, "l07_copy_2d_ok_row_programs_column_loop.py"),
    (BA, "l07_bias_add_ok_contiguous_x_in_wrapper.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


# --- attempts to fake a pass from inside the learner's file ---------------------------------------------------------


def test_fake_torch_save_patch_fails(worker):
    """Was a false pass (torch.save rewritten to save F.gelu(x * w + b)); integrity.py watches torch now."""
    result = verify(worker, FG, "l01_fused_gelu_wrong_fake_torch_save_patch.py")
    assert_fails(result)
    error = result.get("error") or {}
    assert error.get("kind") == "tampered" and error.get("what") == "library", error
    assert "torch.save" in error["changed"], error


def test_fake_ne_patch_hiding_a_torch_write_fails(worker):
    """Was a false pass (Tensor.__ne__ answering 'equal' to the after-launch comparison)."""
    result = verify(worker, CP, "l02_copy_wrong_fake_ne_patch_hides_torch_write.py")
    assert_fails(result)
    kinds_seen = {d["kind"] for c in failed(result) for d in c["diagnoses"]}
    assert (result.get("error") or {}).get("kind") == "tampered" or "written-after-kernel" in kinds_seen


def test_fake_profile_hook_rewriting_the_output_fails(worker):
    """Was a false pass (a sys.setprofile hook edited the saved output); the hook is removed when the call
    returns and named (tampered, what = hook)."""
    result = verify(worker, SS, "l04_scale_shift_wrong_fake_profile_hook_rewrites_output.py")
    assert_fails(result)
    error = result.get("error") or {}
    assert error.get("kind") == "tampered" and error.get("what") == "hook", error
    assert error["changed"] == ["sys.setprofile"], error


# --- lessons 1 and 2: the formula -----------------------------------------------------------------------------------


def test_fused_gelu_w_b_swapped_every_element_wrong(worker):
    result = verify(worker, FG, "l01_fused_gelu_wrong_w_b_swapped_in_launch.py")
    assert_fails(result)
    assert not public_passed(result)
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag.get("cause") == "all-wrong", diag
    assert "argument order" in diag["message"], diag["message"]


def test_gelu_tanh_constant_on_x_only_is_named_a_formula_error(worker):
    """float16 cases pass (the error stays inside fp16's 1e-2 tolerance), float32 cases fail: the lab says the
    formula differs a little everywhere, not that something rounds to 16 bits."""
    result = verify(worker, GT, "l02_gelu_tanh_wrong_constant_scales_only_x.py")
    bad = public_failed(result)
    assert bad and all(c["dtype"] == "float32" for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag.get("cause") == "formula", diag
    assert "formula" in diag["message"] and "constant" in diag["message"], diag["message"]


# --- lesson 3: the grid ---------------------------------------------------------------------------------------------


def test_grid_size_fixed_grid_fails_every_case(worker):
    result = verify(worker, GS, "l03_grid_size_wrong_grid_fixed_from_run_example.py")
    assert_fails(result)
    assert not public_passed(result)
    assert all("grid-size" in kinds(c) for c in public_failed(result))
    assert any("unwritten" in kinds(c) for c in public_failed(result))  # n = 97, BLOCK = 32 needs 4 programs


def test_grid_size_fixed_grid_first_diagnosis_names_the_constant(worker):
    """Was vague (n = 1: 'the extra programs have nothing to do'): the same 3 programs in every case is now
    pattern `fixed` (verify._fixed_grid, across cases)."""
    result = verify(worker, GS, "l03_grid_size_wrong_grid_fixed_from_run_example.py")
    grid = [d for c in public_failed(result) for d in c["diagnoses"] if d["kind"] == "grid-size"]
    assert grid and all(d["pattern"] == "fixed" and d["launched"] == 3 for d in grid), grid
    assert "n に関係なく" in describe(grid[0], "ja")
    message = first_message(result)
    assert any(w in message for w in ("every case", "whatever n", "does not depend", "fixed", "constant")), (
        message
    )


# --- lesson 4: masks, dtypes ----------------------------------------------------------------------------------------


def test_fix_oob_scalar_program_mask_skips_the_partial_block(worker):
    """Triton 3.9's interpreter used to refuse the broadcast scalar mask ("mask has unsupported dtype"); it is
    repaired (interpreter_support.repair_int_masks) and runs as a GPU does: the partial block is never
    written, and the judge names the per-program mask and its line."""
    name = "l04_fix_oob_wrong_skips_partial_block.py"
    result = verify(worker, FO, name)
    assert not result["passed"] and result.get("error") is None, result.get("error")
    diag = first_diag(result)
    assert diag["kind"] == "unwritten" and diag["cause"] == "masked-off" and diag["per_program"], diag
    assert diag["line"] == 18 and "n_elements" in diag["mask"], diag


def test_fix_oob_scalar_program_mask_is_explained(worker):
    """Was Triton's raw 'ValueError: mask has unsupported dtype'; now the per-program mask is named."""
    result = verify(worker, FO, "l04_fix_oob_wrong_skips_partial_block.py")
    message = first_message(result)
    assert "unsupported dtype" not in message, message
    assert "offsets" in message and "one value for the whole program" in message, message
    assert "18 行目" in describe(first_diag(result), "ja")


def test_runtime_shape_square_in_fp16_is_named_a_16_bit_rounding(worker):
    result = verify(worker, RS, "l04_runtime_shape_wrong_square_in_fp16.py")
    bad = public_failed(result)
    assert bad and all(c["dtype"] == "float32" for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag.get("cause") == "dtype-only" and "16-bit" in diag["message"], diag


# --- lesson 5: kernel and wrapper -----------------------------------------------------------------------------------


def test_add_where_on_the_store_value_stops_at_the_store(worker):
    name = "l05_add_wrong_where_guards_value_not_store.py"
    error = stops_at(verify(worker, AD, name), "oob", name, "    tl.store(output_ptr + offsets, tl.where(")
    assert "store" in error["message"] and "mask=" in error["message"], error["message"]


def test_add_refusing_empty_input_names_the_raise(worker):
    name = "l05_add_wrong_rejects_empty_input.py"
    result = verify(worker, AD, name)
    error = stops_at(result, "runtime", name, 'raise ValueError("add() got empty tensors')
    assert error.get("cause") == "rejected-valid" and error["case"].startswith("n=0"), error
    assert "26 行目" in summary(result, "ja") and "有効" in summary(result, "ja")


def test_add_checked_numel_and_ndim_only_fails(worker):
    result = verify(worker, AC, "l05_add_checked_wrong_numel_and_ndim_only.py")
    assert_fails(result)


# --- lesson 6: knobs and the chain ----------------------------------------------------------------------------------


def test_copy_block_clamped_to_1024_is_knob_ignored(worker):
    result = verify(worker, C6, "l06_copy_wrong_block_clamped_to_1024.py")
    bad = public_failed(result)
    assert bad and all(c["name"].endswith("BLOCK_SIZE=2048, num_warps=8") for c in bad), [
        c["name"] for c in bad
    ]
    assert all(kinds(c) == {"knob-ignored"} for c in bad)
    message = first_message(result)
    assert "BLOCK_SIZE=2048" in message and "BLOCK_SIZE=1024" in message, message


def test_fma_chain_restarted_in_each_iteration_points_at_the_loop(worker):
    result = verify(worker, FM, "l06_fma_chain_wrong_y_reset_in_loop.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["degree"] >= 3 for c in bad), [c["name"] for c in bad]
    assert all(c["params"]["degree"] <= 1 for c in public_passed(result))
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and "loop over degree" in diag["message"], diag


# --- lesson 7: strides, axes, layouts -------------------------------------------------------------------------------


def test_copy_2d_strides_in_bytes_stops_at_the_load(worker):
    name = "l07_copy_2d_wrong_strides_in_bytes.py"
    error = stops_at(
        verify(worker, C2, name), "oob", name, "tile = tl.load(x_ptr + rows[:, None] * stride_xm"
    )
    assert "stride_xm = 4" in error["message"] and "(1, 7)" in error["message"], error["message"]


def test_copy_2d_strides_in_bytes_says_elements_not_bytes(worker):
    message = first_message(verify(worker, C2, "l07_copy_2d_wrong_strides_in_bytes.py"))
    assert "bytes" in message or "element_size" in message, message


def test_copy_2d_program_ids_swapped_names_pid_split(worker):
    result = verify(worker, C2, "l07_copy_2d_wrong_program_ids_swapped.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["M"] > 16 for c in bad), [
        c["name"] for c in bad
    ]  # one tile: nothing moves
    diag = first_diag(result)
    assert diag["kind"] == "unwritten" and diag.get("cause") == "tile-map", diag
    assert "pid_m" in diag["message"] and "pid_n" in diag["message"], diag["message"]


def test_transpose_returned_as_t_view_fails_on_layout(worker):
    result = verify(worker, TR, "l07_transpose_wrong_returns_t_view.py")
    bad = public_failed(result)
    assert bad and all(kinds(c) == {"output-layout"} for c in bad), [(c["name"], kinds(c)) for c in bad]
    assert all(c["params"]["M"] == 1 and c["params"]["N"] == 1 for c in public_passed(result))  # 1 x 1 view


def test_transpose_returned_as_t_view_names_the_view(worker):
    """Was 'allocate it with torch.empty(x.shape, ...)' (wrong for a transpose); now the transposed layout."""
    result = verify(worker, TR, "l07_transpose_wrong_returns_t_view.py")
    message = first_message(result)
    assert "torch.empty(x.shape" not in message, message
    assert "view" in message or ".t()" in message, message
    assert first_diag(result).get("transposed") is True, first_diag(result)


def test_bias_add_b_masked_against_rows_names_b_load(worker):
    result = verify(worker, BA, "l07_bias_add_wrong_b_mask_uses_n_rows.py")
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag.get("cause") == "input-missing", diag
    message = diag["message"]
    assert "columns 7–12" in message and "b's load" in message and "other=" not in message, message
    assert "b のロード" in summary(result, "ja")
