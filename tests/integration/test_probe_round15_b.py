"""Probe round 15, part b: 15 held-out learner files for lessons 8, 9, 10 and 12 (7 correct, 8 wrong), written by a
helper session as a reviewer who did not write the lab would (tests/integration/probe_round15_b/README.md).

The correct files use shapes the references do not: unmasked whole chunks then one masked tail, rows interleaved
across programs, a @triton.jit tile loader with groups along N, a 2D grid whose bias seeds the accumulator, configs
from itertools.product with strides in the key, statistics pre-scaled by 1/sqrt(N), contiguous row blocks per
program with stage 2 summed last to first. The wrong files carry one slip each. Each test states the right verdict;
where the lab is wrong or vaguer than it can be today, the test is a strict xfail that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round15_b"


def verify(worker, exercise: str, name: str) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600)


def first(result: dict) -> dict:
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


def case(result: dict, name: str) -> dict:
    return next(c for c in result["cases"] if c["name"] == name)


def line_of(name: str, text: str) -> int:
    lines = (PROBES / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _gap(reason: str):
    return pytest.mark.xfail(strict=True, reason=reason)


def _ids(rows) -> list[str]:
    return [(r.values if hasattr(r, "values") else r)[1][:-3] for r in rows]


CORRECT = [
    ("8/row-sum", "l08_row_sum_ok_unmasked_full_chunks_then_masked_tail.py"),
    ("8/softmax-rows", "l08_softmax_rows_ok_interleaved_rows_strided_by_program_count.py"),
    ("9/matmul", "l09_matmul_ok_jit_tile_loader_groups_along_n.py"),
    ("9/matmul-bias", "l09_matmul_bias_ok_2d_grid_bias_seeds_acc_silu_by_division.py"),
    ("10/autotune-matmul", "l10_autotune_ok_product_configs_key_with_strides_k_offsets.py"),
    ("10/debug-rms-norm", "l10_rms_ok_prescaled_by_inv_sqrt_n_before_square.py"),
    ("12/rms-norm-backward", "l12_rms_backward_ok_contiguous_row_blocks_jit_helper_reverse_stage2.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failing case's first diagnosis kind (or the error's kind), its cause or None for any)
WRONG = [
    (
        "8/row-sum",
        "l08_row_sum_wrong_split_row_atomic_into_uninitialised_output.py",
        "unwritten",
        "stored-poison",
    ),
    ("8/softmax", "l08_softmax_wrong_max_divided_out_after_exp.py", "nan", None),
    (
        "8/softmax-rows",
        "l08_softmax_rows_wrong_grid_from_picked_rows_before_override.py",
        "unwritten",
        "rows-short",
    ),
    # the first failing case divides by zero with a right output (probe 16b finding 8: such a case fails)
    ("9/matmul", "l09_matmul_wrong_grouped_order_num_pid_m_floor_division.py", "zero-division", None),
    ("10/autotune-matmul", "l10_autotune_wrong_config_tile_width_96_not_power_of_two.py", "compile", None),
    ("10/debug-rms-norm", "l10_rms_wrong_mean_square_divides_by_n_minus_one.py", "nan", None),
    ("12/rms-norm-backward", "l12_rms_backward_wrong_dw_acc_reset_inside_row_loop.py", "mismatch", None),
    ("12/rms-norm-backward", "l12_rms_backward_wrong_stage2_steps_partial_rows_by_block_n.py", "oob", None),
]


@pytest.mark.parametrize("exercise, name, kind, cause", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail_with_their_cause(worker, exercise, name, kind, cause):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = result["error"] if result.get("error") else first(result)
    assert diag.get("kind") == kind, diag
    if cause is not None:
        assert diag.get("cause") == cause, diag


# --- what the lab says, beyond the verdict ------------------------------------------------------------------


def test_atomic_add_onto_an_uninitialised_buffer_names_the_line(worker):
    # was a strict xfail: stored-poison named no line and said only 'check what the stored values are computed
    # from' (and "1 element … hold values … stored them")
    name = "l08_row_sum_wrong_split_row_atomic_into_uninitialised_output.py"
    diag = first(verify(worker, "8/row-sum", name))
    assert diag.get("line") in (line_of(name, "tl.atomic_add("), line_of(name, "sums = torch.empty(")), diag
    assert diag.get("alloc_line") == line_of(name, "sums = torch.empty("), diag
    assert "torch.zeros" in diag["message"] and "1 element of the output holds a value" in diag["message"]


def test_atomic_add_onto_an_uninitialised_buffer_is_poison_in_every_dtype(worker):
    # was a strict xfail: the float16/bfloat16 cases (the fp32 buffer cast to x's dtype) failed as kind nan,
    # cause None: 'your arithmetic makes inf or NaN … exp of a large value'
    name = "l08_row_sum_wrong_split_row_atomic_into_uninitialised_output.py"
    result = verify(worker, "8/row-sum", name)
    for dtype in ("float16", "bfloat16"):
        diag = case(result, f"M=1, N=1 · {dtype}")["diagnoses"][0]
        assert diag.get("cause") == "stored-poison", diag
        assert diag.get("line") == line_of(name, "tl.atomic_add("), diag


def test_max_divided_out_after_exp_is_not_called_a_subtracted_max(worker):
    # was a strict xfail: nan-reduction said 'your kernel already subtracts a maximum … look in the running
    # state' because the source contains tl.max(; the kernel divides exp(max) out after exp(row) over/underflowed
    name = "l08_softmax_wrong_max_divided_out_after_exp.py"
    diag = first(verify(worker, "8/softmax", name))
    assert diag.get("kind") == "nan"
    assert "already subtracts a maximum" not in diag.get("message", ""), diag
    assert diag.get("cause") == "max-after-exp" and diag.get("name") == "row_max", diag
    assert diag.get("line") == line_of(name, "tl.exp(row) / tl.exp(row_max)"), diag


@_gap(
    "rows-short names no line; the grid was computed from the picked ROWS before the caller's ROWS override"
)
def test_a_grid_from_the_wrong_rows_names_the_grid(worker):
    name = "l08_softmax_rows_wrong_grid_from_picked_rows_before_override.py"
    diag = first(verify(worker, "8/softmax-rows", name))
    assert diag.get("line") in (line_of(name, "grid = ("), line_of(name, "ROWS=ROWS or rows")), diag


def test_a_group_size_of_zero_is_named(worker):
    # was tile-map with no line, numpy's 'divide by zero encountered in fmod' only program output: the runner
    # records the interpreter's warnings with the learner's line (interpreter_warnings), verify._zero_division
    # follows the divisor group_size_m back to the floor division that made it 0
    name = "l09_matmul_wrong_grouped_order_num_pid_m_floor_division.py"
    result = verify(worker, "9/matmul", name)
    diag = first(result)
    assert diag.get("line") in (  # the code lines (the docstring quotes both first)
        line_of(name, "    num_pid_m = M // BLOCK_M"),
        line_of(name, "    group_size_m = min("),
    ), diag
    zero = diag["zero_division"]
    assert zero["line"] == line_of(name, "pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)"), (
        zero
    )
    assert zero["divisor"] == "group_size_m" and "divided an integer by zero" in diag["message"], diag
    assert "divide by zero" not in (result.get("output") or ""), result.get("output")


def test_a_non_power_of_two_config_is_named(worker):
    # was 'arange's range must be a power of 2' at line 75 (the tl.arange's): contracts.explain_config_error
    # names the BLOCK_N = 96 config at its line (cause config-not-pow2)
    name = "l10_autotune_wrong_config_tile_width_96_not_power_of_two.py"
    error = verify(worker, "10/autotune-matmul", name)["error"]
    assert error["kind"] == "compile"
    assert error.get("config_line") == line_of(name, '"BLOCK_N": 96'), error
    assert "96" in error["message"] and error["line"] == line_of(name, '"BLOCK_N": 96'), error


def test_mean_over_n_minus_one_is_a_constant_factor_at_n_17(worker):
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_mean_square_divides_by_n_minus_one.py")
    diag = case(result, "M=5, N=17 · float32")["diagnoses"][0]
    assert (diag.get("kind"), diag.get("cause")) == ("mismatch", "scaled"), diag
    assert abs(diag["factor"] - (16 / 17) ** 0.5) < 1e-4, diag


def test_mean_over_n_minus_one_is_not_blamed_on_eps(worker):
    # was a strict xfail: the headline case M = 1, N = 1 is the zero row, 0 / (N - 1) = 0/0, and the lab said
    # 'eps is missing or added too late' (zero-row) although eps is there
    name = "l10_rms_wrong_mean_square_divides_by_n_minus_one.py"
    diag = first(verify(worker, "10/debug-rms-norm", name))
    assert diag.get("cause") != "zero-row", diag
    assert diag.get("cause") == "n-minus-one" and diag.get("line") == line_of(
        name, "mean_sq = sum_sq / (N - 1)"
    ), diag


def test_mean_over_n_minus_one_is_a_constant_factor_at_n_300(worker):
    # was a strict xfail: at N = 300 every element is off by sqrt(299/300) = 0.99833 and no cause was given
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_mean_square_divides_by_n_minus_one.py")
    diag = case(result, "M=4, N=300 · float32")["diagnoses"][0]
    assert diag.get("cause") == "scaled", diag
    assert diag.get("n_minus_one") == 300, diag


def test_dw_accumulator_reset_in_the_row_loop_is_not_called_a_formula(worker):
    # was a strict xfail: grad_w right for M = 1 and 3 (one row per stage-1 program, P = 4), wrong from M = 10,
    # and the lab said all-wrong, 'check its formula in the backward'
    name = "l12_rms_backward_wrong_dw_acc_reset_inside_row_loop.py"
    diag = first(verify(worker, "12/rms-norm-backward", name))
    assert diag.get("message", "").startswith("grad_w"), diag
    assert diag.get("cause") != "all-wrong", diag
    assert diag.get("cause") == "partial-last-row" and diag.get("programs") == 4, diag
    assert diag.get("line") == line_of(name, "        dw_acc = tl.zeros("), diag


def test_stage2_row_step_by_block_n_names_the_load(worker):
    name = "l12_rms_backward_wrong_stage2_steps_partial_rows_by_block_n.py"
    error = verify(worker, "12/rms-norm-backward", name)["error"]
    assert (error["kind"], error["line"]) == ("oob", line_of(name, "p * BLOCK_N + cols"))


def test_stage2_row_step_by_block_n_is_not_told_to_mask_harder(worker):
    # was a strict xfail: the oob message read the row step p * BLOCK_N as a chunk offset ('the pointer's
    # offsets are p + cols … bound p + cols instead') and printed the mask as 'mask = cols < N cols < N cols < N'
    # (the mask's assignments were gathered from the three kernels of the file); the fix is p * N
    name = "l12_rms_backward_wrong_stage2_steps_partial_rows_by_block_n.py"
    message = verify(worker, "12/rms-norm-backward", name)["error"]["message"]
    assert "cols < N cols < N" not in message, message
    assert "bound p + cols instead" not in message, message
    assert "(mask = cols < N)" in message and "step by the row length (p * N)" in message, message
