"""Probe round 13 (a helper; `probe_round13/README.md` has the table): 24 held-out files — 7 correct in shapes
the references do not use, 7 wrong with one realistic slip each, 10 fakes that hide torch's work from the guards
in new ways (torch run from code whose frame is not the learner's: timeit, cProfile.runctx, doctest,
code.InteractiveInterpreter, a function whose `__code__` names os.py; a complex128 detour; numpy brought back by
`Tensor.new_tensor`; the answer copied in another dtype). Each test states the right verdict; where the lab is
wrong today the test is a strict xfail that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round13"


def verify(worker, exercise: str, name: str) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600)


def first(result: dict) -> dict:
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


def line_of(name: str, text: str) -> int:
    lines = (PROBES / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


CORRECT = [
    ("4/runtime-shape", "l04_runtime_shape_ok_2d_index_tile_of_16_lanes.py"),
    ("7/transpose", "l07_transpose_ok_program_per_output_row_column_gather.py"),
    ("8/row-sum", "l08_row_sum_ok_dot_with_ones_column.py"),
    ("9/matmul", "l09_matmul_ok_k_loop_two_dots_per_step.py"),
    ("10/debug-rms-norm", "l10_rms_ok_two_level_sum_via_reshape.py"),
    ("11/online-softmax", "l11_online_softmax_ok_while_loop_pointer_bump.py"),
    ("14/swiglu", "l14_swiglu_ok_sigmoid_via_tanh_half_angle.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=[n[:-3] for _, n in CORRECT])
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


def _gap(reason: str):
    return pytest.mark.xfail(strict=True, reason=reason)


# the ten fakes were false passes (one a wrong cause) at 1c0a978; README.md says how each got through
# (exercise, file, the first failing case's first diagnosis kind, its cause or None for any)
WRONG = [
    ("7/copy-2d", "l07_copy_2d_wrong_row_offsets_use_block_n.py", "unwritten", None),
    ("10/debug-rms-norm", "l10_rms_wrong_square_of_row_sum.py", "mismatch", "row-scaled"),
    ("11/attention", "l11_attention_wrong_divide_by_l_without_column_axis.py", "compile", "shape-mismatch"),
    (
        "12/rms-norm-backward",
        "l12_rms_backward_wrong_mean_term_added_not_subtracted.py",
        "mismatch",
        "along-input",
    ),
    (
        "14/cross-entropy",
        "l14_cross_entropy_wrong_target_logit_overwritten_each_chunk.py",
        "mismatch",
        "loop-steps",
    ),
    (
        "3/program-map",
        "l03_program_map_fake_int64_arange_map_cast_by_kernel.py",
        "copied-answer",
        None,
    ),
    (
        "5/add",
        "l05_add_fake_fp64_sum_in_cprofile_runctx.py",
        "torch-work",
        None,
    ),
    (
        "7/transpose",
        "l07_transpose_fake_torch_transpose_in_float64_kernel_casts_flat.py",
        "copied-answer",
        None,
    ),
    (
        "8/softmax",
        "l08_softmax_fake_row_stats_in_timeit_string.py",
        "torch-work",
        None,
    ),
    (
        "8/row-sum",
        "l08_row_sum_fake_complex128_sum_cast_by_kernel.py",
        "torch-work",
        None,
    ),
    (
        "9/matmul",
        "l09_matmul_fake_product_in_doctest_example.py",
        "torch-work",
        None,
    ),
    (
        "10/debug-rms-norm",
        "l10_rms_fake_rstd_in_code_interactive_interpreter.py",
        "torch-work",
        None,
    ),
    (
        "11/online-softmax",
        "l11_online_softmax_fake_numpy_lse_back_through_new_tensor.py",
        "torch-work",
        None,
    ),
    (
        "14/cross-entropy",
        "l14_cross_entropy_fake_lse_on_complex_copy_kernel_gathers.py",
        "torch-work",
        None,
    ),
    (
        "14/swiglu",
        "l14_swiglu_fake_silu_helper_code_renamed_to_os_file.py",
        "torch-work",
        None,
    ),
]


def _ids(rows) -> list[str]:
    return [(r.values if hasattr(r, "values") else r)[1][:-3] for r in rows]


@pytest.mark.parametrize("exercise, name, kind, cause", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail_with_their_cause(worker, exercise, name, kind, cause):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = first(result)
    assert diag.get("kind") == kind, diag
    if cause is not None:
        assert diag.get("cause") == cause, diag


def test_a_scalar_mask_is_named_at_the_load(worker):
    name = "l05_add_wrong_scalar_mask_from_block_start.py"
    error = verify(worker, "5/add", name)["error"]
    assert (error["kind"], error["line"]) == ("oob", line_of(name, "x = tl.load(x_ptr + offsets"))
    assert "block_start < n_elements" in error["message"], error["message"]


def test_the_attention_division_line_is_named(worker):
    name = "l11_attention_wrong_divide_by_l_without_column_axis.py"
    error = verify(worker, "11/attention", name)["error"]
    assert error["line"] == line_of(name, "o = acc / l_i"), error


def test_rows_offset_by_the_other_block_size_is_not_called_overlap(worker):
    name = "l07_copy_2d_wrong_row_offsets_use_block_n.py"
    diag = first(verify(worker, "7/copy-2d", name))
    assert "wrote the same tile" not in diag["message"], diag["message"]  # nothing was stored twice
    assert "step by the wrong size" in diag["message"], diag["message"]


def test_output_stepped_by_the_input_row_stride_is_not_called_bytes(worker):
    name = "l08_softmax_wrong_output_row_stride_from_input.py"
    error = verify(worker, "8/softmax", name)["error"]
    assert error["kind"] == "oob" and error["line"] == line_of(name, "tl.store(out_ptr + row * stride_xm")
    assert "element_size" not in error["message"], error[
        "message"
    ]  # was: "... times 8, the size of an element"
    assert "which is not a stride of out_ptr" in error["message"], error["message"]
