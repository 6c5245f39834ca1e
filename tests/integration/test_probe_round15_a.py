"""Probe round 15, part a (a helper; `probe_round15_a/README.md` has the table): 16 held-out files over lessons
4-7 — 8 correct in shapes the references do not use (a cyclic lane distribution, relu as (x + |x|) / 2, contiguity
hints with an fma square, two atomic adds into zeros, a copy through integer views, an fp64 chain in `tl.range`,
a transpose walked as one flat block, a bias add with the column tiles on grid axis 0) and 8 wrong with one slip
each (a value-dependent store mask, y loaded through x_ptr, dtypes compared by element size, a grid divided by
num_warps too, the chain's half on the wrong operand, a hard-coded fp16 store, column tiles started with BLOCK_M,
the output's shape handed to the transpose kernel). Each test states the right verdict; where the lab is wrong
today the test is a strict xfail that says why."""

import re
from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round15_a"


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
    ("4/scale-shift", "l04_scale_shift_ok_cyclic_lanes_strided_by_num_programs.py"),
    ("4/fix-oob", "l04_fix_oob_ok_relu_as_half_of_x_plus_abs.py"),
    ("4/runtime-shape", "l04_runtime_shape_ok_contiguity_hints_and_fma_square.py"),
    ("6/copy", "l06_copy_ok_bits_through_integer_views.py"),
    ("6/fma-chain", "l06_fma_chain_ok_fp64_chain_in_tl_range.py"),
    ("7/transpose", "l07_transpose_ok_flat_tile_index_div_mod.py"),
    ("7/bias-add", "l07_bias_add_ok_column_tiles_first_axis_fp32_sum.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


def test_atomic_adds_into_zeros_pass(worker):
    # the interpreter's atomic_rmw had no bfloat16 («Unsupported data type» shown as the learner's runtime
    # error); interpreter_support.repair_atomics runs it lane by lane, as one program at a time allows
    result = verify(worker, "5/add", "l05_add_ok_two_atomic_adds_into_zeros.py")
    assert result["passed"], result.get("summary")


# (exercise, file, the first failing case's first diagnosis kind or None for any, its causes or None for any)
WRONG = [
    # the element(s) never written are exactly where x <= 0: the store's mask (line 19) depends on the data
    ("4/fix-oob", "l04_fix_oob_wrong_store_masked_to_positive_lanes.py", "unwritten", ("value-masked",)),
    ("5/add", "l05_add_wrong_y_loaded_through_x_ptr.py", "mismatch", ("input-unread",)),
    ("6/copy", "l06_copy_wrong_grid_divided_by_warps_too.py", "unwritten", ("grid-fewer-programs",)),
    (
        "6/fma-chain",
        "l06_fma_chain_wrong_half_applied_to_x_not_y.py",
        "mismatch",
        ("param-threshold", "scaled", "loop-steps"),
    ),
    ("6/fma-chain", "l06_fma_chain_wrong_store_cast_hardcoded_fp16.py", "mismatch", ("dtype-only",)),
    ("7/transpose", "l07_transpose_wrong_launch_passes_output_shape.py", None, None),
    # the float16-vs-bfloat16 reject case (lesson data) is what sizes compared instead of dtypes let through
    ("5/add-checked", "l05_add_checked_wrong_dtype_compared_by_element_size.py", "validation", None),
    # the interpreter case N = 300 at the 16 x 128 variant: column tiles stepped by BLOCK_M leave columns unwritten
    ("7/copy-2d", "l07_copy_2d_wrong_col_offsets_use_block_m.py", "unwritten", ("tile-map",)),
]


@pytest.mark.parametrize("exercise, name, kind, causes", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail_with_their_cause(worker, exercise, name, kind, causes):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    if kind is None:
        return
    diag = first(result)
    assert diag.get("kind") == kind, diag
    if causes is not None:
        assert diag.get("cause") in causes, diag


def test_the_input_loaded_twice_is_named(worker):
    result = verify(worker, "5/add", "l05_add_wrong_y_loaded_through_x_ptr.py")
    diag = first(result)
    assert diag.get("cause") == "input-unread" and diag.get("inputs") in (["y"], ("y",), "y", None), diag
    assert "never loaded y" in diag["message"], diag["message"]


def test_the_load_through_the_wrong_pointer_has_its_line(worker):
    name = "l05_add_wrong_y_loaded_through_x_ptr.py"
    diag = first(verify(worker, "5/add", name))
    assert diag.get("line") == line_of(name, "y = tl.load(x_ptr + offsets"), diag
    assert diag.get("through") == "x_ptr" and "loads y through x_ptr" in diag["message"], diag


def test_a_value_dependent_store_mask_is_not_blamed_on_offsets(worker):
    # every case called the never-written elements 'scattered' ('check the offsets each program computes from
    # tl.program_id'); they are exactly those where x <= 0: verify._value_masked names the store's mask
    name = "l04_fix_oob_wrong_store_masked_to_positive_lanes.py"
    result = verify(worker, "4/fix-oob", name)
    assert result["passed"] is False
    for case in result["cases"]:
        if case["passed"] or not case.get("diagnoses"):
            continue
        diag = case["diagnoses"][0]
        assert diag.get("cause") != "scattered", (case.get("name"), diag)
        assert "tl.program_id" not in diag.get("message", ""), (case.get("name"), diag.get("message"))
        assert diag.get("cause") == "value-masked", (case.get("name"), diag)
        assert diag.get("line") == line_of(name, "tl.store(output_ptr + offsets, x, mask=positive)"), diag


def test_the_output_shape_handed_to_the_kernel_fails_at_the_load(worker):
    name = "l07_transpose_wrong_launch_passes_output_shape.py"
    error = verify(worker, "7/transpose", name)["error"]
    assert (error["kind"], error["line"]) == ("oob", line_of(name, "tile = tl.load("))


def test_the_output_shape_handed_to_the_kernel_is_named(worker):
    # was 'bounds every index … unless one of its bounds is wrong, the address itself is off — check the
    # strides'; x is the case's input, so its shape is right and the sizes passed are not (memcheck's
    # permuted_bounds, the runner's input find, verify._input_bounds)
    name = "l07_transpose_wrong_launch_passes_output_shape.py"
    error = verify(worker, "7/transpose", name)["error"]
    message = error["message"]
    assert re.search(r"n_rows\D{0,40}13", message) and "the address itself is off" not in message, message
    assert "x_ptr is the input x, of shape (7, 13)" in message, message
    assert f"line {line_of(name, '    n_rows, n_cols = output.shape')}" in message, message
    assert "the view spans" not in message, message
