"""Probe round 17, part a (a helper; `probe_round17_a/README.md` has the table): 16 held-out files over lessons
1-7 — 8 correct in shapes earlier rounds did not use (2D "warps by lanes" offsets, an overflow-free tanh from
exp(-2|u|), a shift-ceiling grid launched as a 3-tuple, an unmasked program map in a padded buffer returned as a
slice, lanes that walk x from its end under `offsets >= 0`, an unmasked body kernel plus a masked tail launch on
slices, an FMA chain of one launch per step through an fp32 scratch, a copy that loads the tile along x's storage
and tl.trans-es it) and 8 wrong with one slip each (the GELU's prefactor on x instead of z, a mask `< n - 1`, a
program map allocated by empty_like(x), tl.minimum for relu, a launch with output and y swapped, a contiguity
check joined with `or`, column offsets of BLOCK_M lanes, a 2D mask joined with `|`). Each test states the right
verdict; where the lab is wrong today the test is a strict xfail that says why."""

import ast
from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round17_a"


def verify(worker, exercise: str, name: str) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600)


def first(result: dict) -> dict:
    if result.get("error"):
        return result["error"]
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


def failing(result: dict) -> list[dict]:
    """The first diagnosis of every failing case."""
    return [c["diagnoses"][0] for c in result["cases"] if not c["passed"] and c.get("diagnoses")]


def line_of(name: str, text: str) -> int:
    """The first line holding `text` below the module docstring (the docstrings quote the slip)."""
    source = (PROBES / name).read_text()
    body = ast.parse(source).body
    start = body[0].end_lineno if body and isinstance(body[0], ast.Expr) else 0
    lines = source.splitlines()
    return next(i for i, line in enumerate(lines, 1) if i > start and text in line)


def _gap(reason: str):
    return pytest.mark.xfail(strict=True, reason=reason)


def _ids(rows) -> list[str]:
    return [(r.values if hasattr(r, "values") else r)[1][:-3] for r in rows]


CORRECT = [
    ("1/fused-gelu", "l01_fused_gelu_ok_warp_by_lane_2d_offsets.py"),
    ("2/gelu-tanh", "l02_gelu_tanh_ok_stable_tanh_from_exp_of_minus_abs.py"),
    ("3/grid-size", "l03_grid_size_ok_shift_ceiling_3d_grid.py"),
    ("3/program-map", "l03_program_map_ok_padded_buffer_unmasked_store.py"),
    ("4/scale-shift", "l04_scale_shift_ok_lanes_from_the_end_mask_nonnegative.py"),
    ("4/runtime-shape", "l04_runtime_shape_ok_unmasked_body_then_masked_tail.py"),
    ("6/fma-chain", "l06_fma_chain_ok_one_launch_per_step_fp32_scratch.py"),
    ("7/copy-2d", "l07_copy_2d_ok_load_along_storage_then_trans.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failing case's first diagnosis kind, its causes or None for any)
WRONG = [
    ("1/fused-gelu", "l01_fused_gelu_wrong_prefactor_uses_x_not_z.py", "mismatch", ("all-wrong",)),
    ("2/gelu-tanh", "l02_gelu_tanh_wrong_mask_n_minus_one.py", "unwritten", ("masked-off",)),
    ("3/program-map", "l03_program_map_wrong_output_empty_like_x_float.py", "wrong-dtype", None),
    ("4/fix-oob", "l04_fix_oob_wrong_minimum_instead_of_maximum.py", "mismatch", ("all-wrong",)),
    ("5/add", "l05_add_wrong_launch_output_and_y_swapped.py", "input-modified", None),
    (
        "5/add-checked",
        "l05_add_checked_wrong_contiguity_check_with_or.py",
        "validation",
        ("failed-in-kernel",),
    ),
    ("7/copy-2d", "l07_copy_2d_wrong_col_arange_length_block_m.py", "unwritten", None),
    ("7/bias-add", "l07_bias_add_wrong_mask_or_instead_of_and.py", "oob", None),
]


@pytest.mark.parametrize("exercise, name, kind, causes", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail_with_their_kind(worker, exercise, name, kind, causes):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = first(result)
    assert diag.get("kind") == kind, diag
    if causes is not None:
        assert diag.get("cause") in causes, diag


# --- what the lab gets right today --------------------------------------------------------------------------


def test_the_or_mask_oob_names_the_load_and_quotes_the_mask(worker):
    name = "l07_bias_add_wrong_mask_or_instead_of_and.py"
    error = verify(worker, "7/bias-add", name)["error"]
    assert (error["kind"], error["line"]) == ("oob", line_of(name, "x = tl.load(x_ptr")), error
    assert "mask = (rows[:, None] < n_rows) | col_mask[None, :]" in error["message"], error["message"]


def test_the_off_by_one_mask_is_called_tail_masked_where_n_exceeds_one(worker):
    # n = 1: every lane masked off (masked-off); every larger n: only element n - 1 unwritten (tail-masked)
    result = verify(worker, "2/gelu-tanh", "l02_gelu_tanh_wrong_mask_n_minus_one.py")
    causes = {
        c["params"]["n"]: c["diagnoses"][0].get("cause")
        for c in result["cases"]
        if not c["passed"] and c.get("diagnoses")
    }
    assert causes[1] == "masked-off" and causes[97] == "tail-masked", causes
    tail = next(d for d in failing(result) if d.get("cause") == "tail-masked")
    assert "off-by-one" in tail["message"] and tail.get("first") == tail["numel"] - 1, tail


def test_the_float_program_map_is_told_to_be_int32(worker):
    diag = first(verify(worker, "3/program-map", "l03_program_map_wrong_output_empty_like_x_float.py"))
    assert diag.get("fixed") is True and "dtype=torch.int32" in diag["message"], diag


def test_the_swapped_launch_is_seen_as_y_written_and_output_unwritten(worker):
    result = verify(worker, "5/add", "l05_add_wrong_launch_output_and_y_swapped.py")
    bad = next(c for c in result["cases"] if not c["passed"])
    kinds = [(d.get("kind"), d.get("arg") or d.get("cause")) for d in bad["diagnoses"]]
    assert kinds == [("input-modified", "y"), ("unwritten", "none-written")], kinds


def test_the_or_contiguity_check_fails_only_the_one_strided_cases(worker):
    result = verify(worker, "5/add-checked", "l05_add_checked_wrong_contiguity_check_with_or.py")
    bad = sorted(c["name"] for c in result["cases"] if not c["passed"])
    assert bad == ["rejects non-contiguous input", "rejects non-contiguous x"], bad


def test_the_narrow_columns_fail_only_the_non_square_tile(worker):
    result = verify(worker, "7/copy-2d", "l07_copy_2d_wrong_col_arange_length_block_m.py")
    bad = [c["name"] for c in result["cases"] if not c["passed"]]
    assert bad and all("BLOCK_M=16, BLOCK_N=128" in n for n in bad), bad


# --- findings: what the lab should say ----------------------------------------------------------------------


# finding 1, fixed: cause arange-block at the cols line (contracts._explain_arange_block)
def test_column_offsets_of_block_m_lanes_are_named(worker):
    name = "l07_copy_2d_wrong_col_arange_length_block_m.py"
    diags = failing(verify(worker, "7/copy-2d", name))
    assert diags
    for diag in diags:
        assert diag.get("cause") not in ("grid-axis-missing", "tile-map"), diag
        assert diag.get("line") == line_of(name, "cols = pid_n * BLOCK_N"), diag


# finding 1, fixed: grid-axis-missing only where the output needs more than one program along that axis
def test_a_one_program_axis_is_not_called_missing(worker):
    diags = failing(verify(worker, "7/copy-2d", "l07_copy_2d_wrong_col_arange_length_block_m.py"))
    assert all("has no axis" not in d.get("message", "") for d in diags), [d["message"] for d in diags]


# finding 2, fixed: input-modified cause launch-order (verify._launch_order, the runner's bindings)
def test_the_swapped_launch_arguments_are_named(worker):
    name = "l05_add_wrong_launch_output_and_y_swapped.py"
    diag = first(verify(worker, "5/add", name))
    assert diag.get("line") == line_of(name, "add_kernel[grid](x, output, y"), diag
    assert "output_ptr" in diag["message"] and "y_ptr" in diag["message"], diag["message"]


# finding 3, fixed: the oob report's or_joined fact (memcheck.report._or_joined)
def test_an_or_joined_mask_is_called_or_joined(worker):
    error = verify(worker, "7/bias-add", "l07_bias_add_wrong_mask_or_instead_of_and.py")["error"]
    assert "never bounds" not in error["message"], error["message"]
    assert "&" in error["message"], error["message"]


def test_the_off_by_one_mask_names_its_line(worker):
    name = "l02_gelu_tanh_wrong_mask_n_minus_one.py"
    diags = failing(verify(worker, "2/gelu-tanh", name))
    assert diags
    assert all(d.get("line") == line_of(name, "mask = offsets < n_elements - 1") for d in diags), diags[:2]


ALL_WRONG_LINES = [
    ("1/fused-gelu", "l01_fused_gelu_wrong_prefactor_uses_x_not_z.py", "y = 0.5 * x * (1.0 + tl.erf"),
    ("4/fix-oob", "l04_fix_oob_wrong_minimum_instead_of_maximum.py", "tl.minimum(x, 0.0)"),
]


@_gap(
    "finding 5: a formula slip in the one stored value is 'every element is wrong — check the operation, the "
    "argument order and the dtype' with no line; every lane is written in bounds, so the stored expression's "
    "line is knowable"
)
@pytest.mark.parametrize("exercise, name, text", ALL_WRONG_LINES, ids=_ids(ALL_WRONG_LINES))
def test_a_formula_slip_names_the_stored_expression(worker, exercise, name, text):
    diag = first(verify(worker, exercise, name))
    assert diag.get("line") == line_of(name, text), diag


def test_the_float_program_map_names_its_allocation(worker):
    name = "l03_program_map_wrong_output_empty_like_x_float.py"
    diag = first(verify(worker, "3/program-map", name))
    assert diag.get("line") == line_of(name, "out = torch.empty_like(x)"), diag


# finding 7, fixed: contracts.check_let_through names the check and its line
def test_the_or_contiguity_check_is_named(worker):
    name = "l05_add_checked_wrong_contiguity_check_with_or.py"
    diag = first(verify(worker, "5/add-checked", name))
    assert diag.get("line") == line_of(name, "is_contiguous() or"), diag
    assert "step through it with the tensor's strides" not in diag["message"], diag["message"]


def test_interpreter_warnings_are_not_the_learners_output(worker):
    result = verify(worker, "2/gelu-tanh", "l02_gelu_tanh_wrong_mask_n_minus_one.py")
    warned = [w for c in result["cases"] for w in c.get("interpreter_warnings") or []]
    assert warned, "the case records the interpreter's warnings"
    assert "RuntimeWarning" not in (result.get("output") or ""), (result.get("output") or "")[:300]
