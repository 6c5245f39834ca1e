"""Probe round 16, part b: 15 held-out learner files for lessons 8, 9 and 10 (7 correct, 8 wrong), written by a
helper session as a reviewer who did not write the lab would (tests/integration/probe_round16_b/README.md).

The correct files use shapes the references do not: a chunk loop unrolled into two accumulators with an out=
wrapper, a log-sum-exp softmax (a second exp instead of the division), a row tile walking the columns in three
chunked passes, 1 x 2 register blocking in the GEMM, tl.swizzle2d with the bias as a [1, BLOCK_N] tile, an
autotuned GEMM reading B K-major through tl.trans, an RMSNorm with 1/N from the host. The wrong files carry one
slip each. Each test states the right verdict; where the lab is wrong or vaguer than it can be today, the test is
a strict xfail that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round16_b"

_RESULTS: dict = {}


def verify(worker, exercise: str, name: str) -> dict:
    key = (exercise, name)
    if key not in _RESULTS:  # the worker is per module: one verify per file serves every test below
        _RESULTS[key] = worker.request(
            "verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600
        )
    return _RESULTS[key]


def first(result: dict) -> dict:
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


def failing(result: dict) -> list[dict]:
    return [c for c in result["cases"] if not c["passed"]]


def case(result: dict, name: str) -> dict:
    return next(c for c in result["cases"] if c["name"] == name)


def line_of(name: str, text: str) -> int:
    """The first code line holding text (the module docstring, which quotes the slip, is skipped)."""
    lines = (PROBES / name).read_text().splitlines()
    start = next(i for i, line in enumerate(lines, 1) if line.startswith("import "))
    return next(i for i, line in enumerate(lines, 1) if i > start and text in line)


def _gap(reason: str):
    return pytest.mark.xfail(strict=True, reason=reason)


def _ids(rows) -> list[str]:
    return [(r.values if hasattr(r, "values") else r)[1][:-3] for r in rows]


CORRECT = [
    ("8/row-sum", "l08_row_sum_ok_two_accumulators_even_odd_chunks_out_arg.py"),
    ("8/softmax", "l08_softmax_ok_log_sum_exp_second_exp_int64_rows.py"),
    ("8/softmax-rows", "l08_softmax_rows_ok_row_tile_three_pass_over_column_chunks.py"),
    ("9/matmul", "l09_matmul_ok_two_column_tiles_share_a_tile.py"),
    ("9/matmul-bias", "l09_matmul_bias_ok_swizzle2d_tile_order_bias_as_row_tile.py"),
    ("10/autotune-matmul", "l10_autotune_ok_b_read_k_major_through_trans_with_hints.py"),
    ("10/debug-rms-norm", "l10_rms_ok_host_reciprocal_n_empty_like_output.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failing case's first diagnosis kind (or the error's kind), its cause or None for any)
WRONG = [
    ("8/row-sum", "l08_row_sum_wrong_chunk_index_used_as_column_offset.py", "mismatch", None),
    ("8/softmax", "l08_softmax_wrong_padding_reset_to_zero_after_max.py", "mismatch", None),
    ("8/softmax", "l08_softmax_wrong_write_pass_shifts_by_chunk_max.py", "mismatch", None),
    ("8/softmax-rows", "l08_softmax_rows_wrong_row_start_missing_times_rows.py", "unwritten", None),
    ("9/matmul", "l09_matmul_wrong_k_offset_loop_masked_as_tile_index.py", "mismatch", "k-steps"),
    ("9/matmul", "l09_matmul_wrong_b_k_mask_on_column_axis.py", "oob", None),
    ("9/matmul-fast", "l09_matmul_fast_wrong_even_k_from_picked_config_before_override.py", "oob", None),
    ("10/autotune-matmul", "l10_autotune_wrong_grid_counts_columns_with_block_m.py", "oob", None),
]


@pytest.mark.parametrize("exercise, name, kind, cause", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail_with_their_cause(worker, exercise, name, kind, cause):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = result["error"] if result.get("error") else first(result)
    assert diag.get("kind") == kind, diag
    if cause is not None:
        assert diag.get("cause") == cause, diag


# --- 8/row-sum ------------------------------------------------------------------------------------------------

RS_CHUNK = "l08_row_sum_wrong_chunk_index_used_as_column_offset.py"


def test_chunk_index_as_offset_fails_only_on_rows_of_two_chunks(worker):
    bad = failing(verify(worker, "8/row-sum", RS_CHUNK))
    assert bad and all(c["params"]["N"] == 5000 for c in bad), [c["name"] for c in bad]


def test_chunk_index_as_offset_is_not_said_to_read_all_input(worker):
    diag = first(verify(worker, "8/row-sum", RS_CHUNK))
    assert diag.get("loaded_all") is not True, diag
    assert "accumulator reset" not in diag.get("message", ""), diag
    assert diag.get("line") == line_of(RS_CHUNK, "cols = c + tl.arange("), diag
    assert diag.get("unread", {}).get("unread") == 903 and "c * BLOCK_SIZE" in diag["message"], diag


# --- 8/softmax ------------------------------------------------------------------------------------------------

SM_PAD = "l08_softmax_wrong_padding_reset_to_zero_after_max.py"
SM_CHUNK = "l08_softmax_wrong_write_pass_shifts_by_chunk_max.py"


def test_padding_zeroed_after_the_max_fails_only_where_there_is_padding(worker):
    bad = failing(verify(worker, "8/softmax", SM_PAD))
    assert bad and all(c["params"]["N"] & (c["params"]["N"] - 1) for c in bad), [c["name"] for c in bad]


def test_padding_zeroed_after_the_max_names_the_where(worker):
    diag = first(verify(worker, "8/softmax", SM_PAD))
    assert diag.get("cause") == "padding-in-sum", diag
    assert diag.get("line") == line_of(SM_PAD, "row = tl.where(mask, row, 0.0)"), diag


def test_write_pass_chunk_max_fails_only_on_rows_of_several_chunks(worker):
    bad = failing(verify(worker, "8/softmax", SM_CHUNK))
    assert bad and all(c["params"]["N"] > 256 for c in bad), [c["name"] for c in bad]


def test_write_pass_chunk_max_names_the_shift(worker):
    diag = first(verify(worker, "8/softmax", SM_CHUNK))
    assert diag.get("cause") == "per-chunk-scale" and diag.get("block_value") == 256, diag
    assert diag.get("line") == line_of(SM_CHUNK, "chunk_max = tl.max(x, axis=0)"), diag


# --- 8/softmax-rows -------------------------------------------------------------------------------------------

SR_ROWS = "l08_softmax_rows_wrong_row_start_missing_times_rows.py"


def test_row_start_without_times_rows_passes_with_one_row_per_program(worker):
    result = verify(worker, "8/softmax-rows", SR_ROWS)
    assert all(c["passed"] for c in result["cases"] if "ROWS=1" in c["name"])
    later = [d.get("cause") for c in failing(result)[4:] for d in c.get("diagnoses", [])[:1]]
    assert "overlap" in later, later  # M = 6, N = 13 on: 'stored by more than one program' (right)


def test_row_start_without_times_rows_is_not_blamed_on_the_grid(worker):
    diag = first(verify(worker, "8/softmax-rows", SR_ROWS))
    assert diag.get("cause") != "grid-fewer-programs", diag
    assert diag.get("line") == line_of(SR_ROWS, "rows = tl.program_id(axis=0) + tl.arange(0, ROWS)"), diag
    assert diag.get("cause") == "overlap" and diag.get("start_size") == "ROWS", diag


# --- 9/matmul -------------------------------------------------------------------------------------------------

MM_KOFF = "l09_matmul_wrong_k_offset_loop_masked_as_tile_index.py"
MM_BMASK = "l09_matmul_wrong_b_k_mask_on_column_axis.py"


def test_k_offset_loop_says_several_k_steps_fail(worker):
    diag = first(verify(worker, "9/matmul", MM_KOFF))
    assert diag.get("cause") == "k-steps" and "K mask" in diag["message"], diag


def test_k_offset_loop_names_the_first_step_only_and_the_mask_line(worker):
    diag = first(verify(worker, "9/matmul", MM_KOFF))
    assert diag.get("line") == line_of(MM_KOFF, "k_remaining = K - k * BLOCK_K"), diag
    assert "exactly the first K step's product" in diag["message"], diag


def test_b_mask_on_the_column_axis_stops_at_the_b_load(worker):
    error = verify(worker, "9/matmul", MM_BMASK)["error"]
    assert error["kind"] == "oob" and error["detail"]["arg"] == "b_ptr", error
    assert error["line"] == line_of(MM_BMASK, "b = tl.load(b_ptrs,"), error


def test_b_mask_on_the_column_axis_names_the_axis(worker):
    error = verify(worker, "9/matmul", MM_BMASK)["error"]
    assert "bounds every index" not in error["message"], error["message"]
    assert error["detail"].get("unbounded") == [{"name": "offs_k", "axis": 0, "mask_axis": 1}], error[
        "detail"
    ]
    assert "bounds offs_k along columns (offs_k[None, :])" in error["message"], error["message"]


# --- 9/matmul-fast --------------------------------------------------------------------------------------------

MF_EVEN = "l09_matmul_fast_wrong_even_k_from_picked_config_before_override.py"


def test_even_k_from_the_picked_config_names_the_promise(worker):
    result = verify(worker, "9/matmul-fast", MF_EVEN)
    error = result["error"]
    assert error["kind"] == "oob" and "config=" in error["case"] and "K=96" in error["case"], error
    assert error["detail"]["promise"]["line"] == line_of(MF_EVEN, "EVEN_K=even_k"), error["detail"]
    assert "fix how the wrapper computes EVEN_K" in error["message"], error["message"]


# --- 10/autotune-matmul ---------------------------------------------------------------------------------------

AT_GRID = "l10_autotune_wrong_grid_counts_columns_with_block_m.py"


def test_grid_with_block_m_for_columns_fails_on_a_pinned_gpu_config(worker):
    error = verify(worker, "10/autotune-matmul", AT_GRID)["error"]
    assert error["kind"] == "oob" and "@autotune=" in error["case"], error


def test_grid_with_block_m_for_columns_names_the_grid(worker):
    error = verify(worker, "10/autotune-matmul", AT_GRID)["error"]
    assert error["line"] == line_of(AT_GRID, "grid = lambda meta:"), error
    over = error["detail"]["grid_over"]
    assert (over["programs"], over["tiles"], over["blocks"]) == (36, 20, [16, 32]), over
    assert "mask the load" not in error["message"], error["message"]


def test_grid_with_block_m_for_columns_divides_by_zero_in_a_passing_case(worker):
    result = verify(worker, "10/autotune-matmul", AT_GRID)
    smallest = case(result, "M=17, N=33, K=65 · float16 · @autotune=smallest")
    assert smallest.get("interpreter_warnings"), smallest.get("interpreter_warnings")
    assert smallest["passed"] is False, "an integer division by zero ran in this case"
    diag = smallest["diagnoses"][0]
    assert diag["kind"] == "zero-division" and diag["line"] == line_of(AT_GRID, "% group_size_m"), diag
