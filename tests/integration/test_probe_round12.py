"""Probe round 12 (twenty-third session, a helper; `probe_round12/README.md` has the table): 28 held-out files
— fakes that dodge the guards (a copy kernel that also loads an input, numpy results brought back by dlpack,
frombuffer or a numpy view, gradients computed by torch and returned), a streaming block under another name, a
`[:, None]` only in a docstring, strides compared with each other. The lab got 17 wrong or incomplete at
594ac58; each test states the right verdict."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round12"


def verify(worker, exercise: str, name: str) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600)


def first(result: dict) -> dict:
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


CORRECT = [
    ("3/grid-size", "l03_grid_size_ok_where_lengths_grid_lambda.py"),
    ("4/scale-shift", "l04_scale_shift_ok_keyword_only_block_fp64_where.py"),
    ("6/copy", "l06_copy_ok_launch_through_kernel_run.py"),
    ("8/softmax", "l08_softmax_ok_padded_output_sliced_view.py"),
    ("8/softmax-rows", "l08_softmax_rows_ok_scan_last_column_persistent.py"),
    ("9/matmul", "l09_matmul_ok_column_major_output_empty_strided.py"),
    ("13/matmul-descriptors", "l13_matmul_descriptors_ok_fp32_c_descriptor_cast_in_wrapper.py"),
    ("14/swiglu-backward", "l14_swiglu_backward_ok_custom_op_register_autograd.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=[n[:-3] for _, n in CORRECT])
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failing case's first diagnosis kind, its cause or None for any); "was" = at 594ac58
WRONG = [
    ("3/program-map", "l03_program_map_fake_torch_arange_map_copied_beside_x_load.py", "copied-answer", None),
    ("4/fix-oob", "l04_fix_oob_fake_relu_by_sign_bit_on_int_view.py", "copied-answer", None),
    ("5/add-checked", "l05_add_checked_wrong_strides_compared_with_each_other.py", "validation", None),
    ("5/add", "l05_add_fake_numpy_sum_from_dlpack_checked_in_kernel.py", "torch-work", None),
    ("7/transpose", "l07_transpose_fake_torch_t_contiguous_copied_beside_x_load.py", "copied-answer", None),
    # was intermittent; torch's sums are named either as the copied answer or (since the stdlib walk of probe
    # round 13, in a worker that verified other files first) as torch-work at the .sum() line: both are true
    ("8/row-sum", "l08_row_sum_fake_item_sums_in_python.py", ("copied-answer", "torch-work"), None),
    ("8/softmax", "l08_softmax_fake_row_sums_numpy_frombuffer.py", "torch-work", None),
    ("9/matmul", "l09_matmul_fake_product_under_disable_current_modes.py", "copied-answer", None),
    ("10/debug-rms-norm", "l10_rms_fake_lab_reference_evaluator_checked_in_kernel.py", "copied-answer", None),
    ("11/attention", "l11_attention_fake_one_key_block_named_block_kv.py", "loop-once", None),
    (
        "11/online-softmax",
        "l11_online_softmax_wrong_rescale_after_adding_chunk.py",
        "nan",
        "rescale-after-add",
    ),
    (
        "12/rms-norm-backward",
        "l12_rms_backward_fake_dx_in_torch_returned_directly.py",
        "not-kernel-output",
        None,
    ),
    (
        "14/cross-entropy",
        "l14_cross_entropy_fake_numpy_lse_written_through_numpy_view.py",
        "torch-work",
        None,
    ),
    (
        "14/cross-entropy",
        "l14_cross_entropy_wrong_lse_missing_max_reference_in_docstring.py",
        "mismatch",
        "max-dropped",
    ),
    (
        "14/swiglu-backward",
        "l14_swiglu_backward_fake_da_in_torch_returned_directly.py",
        "not-kernel-output",
        None,
    ),
    ("14/swiglu", "l14_swiglu_fake_threadpool_silu_checked_in_kernel.py", "copied-answer", None),
]


@pytest.mark.parametrize("exercise, name, kind, cause", WRONG, ids=[n[:-3] for _, n, _, _ in WRONG])
def test_wrong_files_fail_with_their_cause(worker, exercise, name, kind, cause):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = first(result)
    assert diag.get("kind") in ((kind,) if isinstance(kind, str) else kind), diag
    if cause is not None:
        assert diag.get("cause") == cause, diag


def test_a_gradient_torch_computed_is_named_on_its_output(worker):
    diag = first(
        verify(worker, "12/rms-norm-backward", "l12_rms_backward_fake_dx_in_torch_returned_directly.py")
    )
    assert (diag.get("gradient"), diag.get("output")) == ("x", "grad_x"), diag


def test_a_copy_that_also_loads_an_input_is_said_to_move_with_the_buffer(worker):
    result = verify(worker, "7/transpose", "l07_transpose_fake_torch_t_contiguous_copied_beside_x_load.py")
    assert first(result).get("beside_inputs") is True, first(result)


def test_the_wrong_stride_argument_is_named_at_the_launch(worker):
    """Was: the load (which used the stride it was given) and "step through it with the tensor's strides"."""
    result = verify(worker, "7/transpose", "l07_transpose_wrong_x_row_stride_passed_as_n_cols.py")
    error = result["error"]
    assert error["kind"] == "oob"
    (step,) = error["detail"]["foreign"]
    assert (step["name"], step["passed"], step["value"]) == ("stride_xm", "n_cols", 13), step
    source = (PROBES / "l07_transpose_wrong_x_row_stride_passed_as_n_cols.py").read_text().splitlines()
    assert source[step["passed_line"] - 1].strip() == "n_cols,", step


def test_a_docstring_that_shows_a_2d_index_is_not_code():
    """Was a wrong cause (no-axis, blaming a right 1D tl.sum): `[:, None]` appeared only in a docstring."""
    from tritonlab.engine.tasks.verify import _builds_2d_tiles

    assert _builds_2d_tiles("y = x[:, None] + 1") and _builds_2d_tiles("y = x[None, :]")
    assert not _builds_2d_tiles('"""x[:, None]"""\n# y[None, :]\nz = 1')
