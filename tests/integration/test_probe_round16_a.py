"""Probe round 16, part a (a helper; `probe_round16_a/README.md` has the table): 16 held-out files over lessons
1-7 — 8 correct in shapes earlier rounds did not use (w and b stacked in one buffer, a grid of n // B plus a
bool with a tl.where length, a and b loaded from a device tensor, relu as x * (x > 0) with other=-inf, even and
odd lanes, a copy launched slice by slice, an fp32 scratch cast back in the wrapper, a bias add over flat int64
lanes) and 8 wrong with one slip each (the w load without its block start, a floor grid clamped to 1, a store
mask with <=, offsets narrowed to int16, odd lanes under the even lanes' mask, an output of padded rows, an
output made by empty_like(x.t()), a 2D grid with its axes swapped). Each test states the right verdict; where
the lab is wrong today the test is a strict xfail that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round16_a"


def verify(worker, exercise: str, name: str) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600)


def first(result: dict) -> dict:
    if result.get("error"):
        return result["error"]
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
    ("1/fused-gelu", "l01_fused_gelu_ok_w_b_stacked_in_one_buffer.py"),
    ("3/grid-size", "l03_grid_size_ok_where_tail_bool_remainder_grid.py"),
    ("4/scale-shift", "l04_scale_shift_ok_a_b_loaded_from_a_tensor.py"),
    ("4/fix-oob", "l04_fix_oob_ok_relu_as_product_with_bool_other_neg_inf.py"),
    ("5/add", "l05_add_ok_interleaved_even_odd_lanes.py"),
    ("6/copy", "l06_copy_ok_wrapper_launches_in_slices.py"),
    ("6/fma-chain", "l06_fma_chain_ok_fp32_scratch_cast_in_wrapper.py"),
    ("7/bias-add", "l07_bias_add_ok_flat_lanes_int64_div_mod.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failing case's first diagnosis kind, its causes or None for any)
WRONG = [
    ("1/fused-gelu", "l01_fused_gelu_wrong_w_load_missing_block_start.py", "mismatch", ("all-but-first",)),
    ("3/grid-size", "l03_grid_size_wrong_floor_clamped_to_one.py", "grid-size", None),
    ("4/fix-oob", "l04_fix_oob_wrong_store_mask_le_load_mask_right.py", "oob", None),
    ("4/runtime-shape", "l04_runtime_shape_wrong_offsets_cast_int16.py", "oob", None),
    ("5/add", "l05_add_wrong_odd_lanes_reuse_even_mask.py", "oob", None),
    ("7/copy-2d", "l07_copy_2d_wrong_output_rows_padded_view.py", "output-layout", None),
    ("7/transpose", "l07_transpose_wrong_output_empty_like_x_t.py", "output-layout", None),
    ("7/bias-add", "l07_bias_add_wrong_grid_axes_swapped.py", "unwritten", ("grid-axes-swapped",)),
]


@pytest.mark.parametrize("exercise, name, kind, causes", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail_with_their_cause(worker, exercise, name, kind, causes):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = first(result)
    assert diag.get("kind") == kind, diag
    if causes is not None:
        assert diag.get("cause") in causes, diag


# the out-of-bounds verdicts name the learner's line and quote the mask that let the lanes through
OOB_LINES = [
    (
        "4/fix-oob",
        "l04_fix_oob_wrong_store_mask_le_load_mask_right.py",
        "tl.store(output_ptr",
        "offsets <= n_elements",
    ),
    ("4/runtime-shape", "l04_runtime_shape_wrong_offsets_cast_int16.py", "x = tl.load(", "narrowed to int16"),
    ("5/add", "l05_add_wrong_odd_lanes_reuse_even_mask.py", "xo = tl.load(", "mask = even < n_elements"),
]


@pytest.mark.parametrize("exercise, name, text, said", OOB_LINES, ids=_ids(OOB_LINES))
def test_out_of_bounds_verdicts_name_the_line(worker, exercise, name, text, said):
    error = verify(worker, exercise, name)["error"]
    assert (error["kind"], error["line"]) == ("oob", line_of(name, text)), error
    assert said in error["message"], error["message"]


def test_the_transposed_output_is_called_transposed(worker):
    diag = first(verify(worker, "7/transpose", "l07_transpose_wrong_output_empty_like_x_t.py"))
    assert diag.get("transposed") is True and "torch.empty_like of a transposed tensor" in diag["message"], (
        diag
    )


def test_the_clamped_floor_grid_counts_programs_and_blocks(worker):
    diag = first(verify(worker, "3/grid-size", "l03_grid_size_wrong_floor_clamped_to_one.py"))
    assert "1 program for 2 blocks" in diag["message"] and "triton.cdiv" in diag["message"], diag


def test_the_w_load_without_its_block_start_is_named(worker):
    # every failing case has program 0 right and every other program wrong (n = 1023 at BLOCK_SIZE = 256
    # first, not a tail): verify._all_but_first names the one load whose address has no program-id term
    name = "l01_fused_gelu_wrong_w_load_missing_block_start.py"
    diag = first(verify(worker, "1/fused-gelu", name))
    assert diag.get("cause") == "all-but-first", diag
    assert diag.get("line") == line_of(name, "w = tl.load(w_ptr"), diag
    assert (diag.get("pointer"), diag.get("instead")) == ("w_ptr", "offsets"), diag


def test_no_case_blames_the_tail_for_a_load_without_its_block_start(worker):
    # the n = 1025 cases at the default block (only program 1 of 2 wrong) said tail-block before
    result = verify(worker, "1/fused-gelu", "l01_fused_gelu_wrong_w_load_missing_block_start.py")
    causes = [
        c["diagnoses"][0].get("cause") for c in result["cases"] if not c["passed"] and c.get("diagnoses")
    ]
    assert "tail-block" not in causes, causes


def test_a_grid_with_swapped_axes_is_named(worker):
    # the grid is (3, 4) for 4 row tiles x 3 column tiles: contracts.swapped_grid_axes, with the grid's line
    name = "l07_bias_add_wrong_grid_axes_swapped.py"
    diag = first(verify(worker, "7/bias-add", name))
    assert (diag.get("kind"), diag.get("cause")) == ("unwritten", "grid-axes-swapped"), diag
    assert diag.get("tile_counts") == [4, 3] and "swapped" in diag["message"], diag
    assert diag.get("line") == line_of(name, "grid = lambda meta"), diag


def test_a_padded_row_output_is_called_a_slice(worker):
    # the output is a [:, :13] slice of a buffer with rows of 16 (strides (16, 1)): said as such, at the slice,
    # with no guess at torch.empty_like (x is transposed: empty_like(x) would give (1, 7))
    name = "l07_copy_2d_wrong_output_rows_padded_view.py"
    diag = first(verify(worker, "7/copy-2d", name))
    assert "empty_like" not in diag["message"], diag["message"]
    assert diag.get("padded") is True and "wider buffer" in diag["message"], diag
    assert diag.get("line") == line_of(name, "output = padded[:, :n_cols]"), diag


LINELESS = [
    ("3/grid-size", "l03_grid_size_wrong_floor_clamped_to_one.py", "grid = lambda meta"),
    ("7/transpose", "l07_transpose_wrong_output_empty_like_x_t.py", "output = torch.empty_like(x.t())"),
]


# the grid's line (contracts.grid_line) and the returned tensor's assignment (contracts.returned_line)
@pytest.mark.parametrize("exercise, name, text", LINELESS, ids=_ids(LINELESS))
def test_fitting_verdicts_name_their_line(worker, exercise, name, text):
    diag = first(verify(worker, exercise, name))
    assert diag.get("line") == line_of(name, text), diag


def test_the_int16_offsets_are_named(worker):
    # the offsets were narrowed to int16 at line 11 and wrap at 32768 (program 32 starts at -32768)
    name = "l04_runtime_shape_wrong_offsets_cast_int16.py"
    error = verify(worker, "4/runtime-shape", name)["error"]
    assert "int16" in error["message"], error["message"]
    wrap = error["detail"]["narrow_wrap"]
    assert wrap["bits"] == 16 and wrap["offset"] == 32768, wrap
    assert wrap["cast_line"] == line_of(name, ".to(tl.int16)"), wrap
