"""Probe round 17, part b: 14 held-out learner files for lessons 8, 9 and 10 (7 correct, 7 wrong), written by a
helper session as a reviewer who did not write the lab would (tests/integration/probe_round17_b/README.md).

The correct files use shapes the references do not: rows on grid axis 1 with the chunks summed last to first,
a two-pass softmax with per-lane running max/sum combined with a rescale, a flat block reshaped into the row
tile, K split by hand into two halves with two accumulators, a column-major tile order with a tl.range K loop
over offsets, an autotuned GEMM on a swapped 2D grid with configs that carry no GROUP_M, an RMSNorm whose mean
square is scaled by the row's largest magnitude. The wrong files carry one slip each. Each test states the right
verdict; where the lab is wrong or vaguer than it can be today, the test is a strict xfail that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round17_b"

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
    ("8/row-sum", "l08_row_sum_ok_row_on_grid_axis1_chunks_last_to_first.py"),
    ("8/softmax", "l08_softmax_ok_per_lane_running_max_sum_combined_with_rescale.py"),
    ("8/softmax-rows", "l08_softmax_rows_ok_flat_block_reshaped_to_row_tile.py"),
    ("9/matmul", "l09_matmul_ok_k_split_in_two_halves_two_accumulators.py"),
    ("9/matmul-bias", "l09_matmul_bias_ok_column_major_tile_order_k_offsets_trange.py"),
    ("10/autotune-matmul", "l10_autotune_ok_swapped_2d_grid_configs_without_group_m.py"),
    ("10/debug-rms-norm", "l10_rms_ok_sum_of_squares_scaled_by_row_absmax.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failing case's first diagnosis kind (or the error's kind), its cause or None for any)
WRONG = [
    ("8/softmax", "l08_softmax_wrong_per_lane_sums_added_without_rescale.py", "mismatch", "row-scaled"),
    ("8/softmax-rows", "l08_softmax_rows_wrong_one_row_path_exp_without_max.py", "nan", None),
    ("9/matmul", "l09_matmul_wrong_grouped_order_pid_n_divides_by_group_m.py", "unwritten", "tile-map"),
    (
        "9/matmul-bias",
        "l09_matmul_bias_wrong_bias_offsets_without_tile_start.py",
        "mismatch",
        "input-first-block",
    ),
    ("9/matmul-fast", "l09_matmul_fast_wrong_a_padded_along_k_b_left_short.py", "oob", None),
    ("10/autotune-matmul", "l10_autotune_wrong_decode_configs_group_m_zero.py", "zero-division", None),
    ("10/debug-rms-norm", "l10_rms_wrong_mask_less_or_equal_n.py", "oob", None),
]


@pytest.mark.parametrize("exercise, name, kind, cause", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail_with_their_cause(worker, exercise, name, kind, cause):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = result["error"] if result.get("error") else first(result)
    assert diag.get("kind") == kind, diag
    if cause is not None:
        assert diag.get("cause") == cause, diag


# --- 8/softmax ------------------------------------------------------------------------------------------------

SM_LANES = "l08_softmax_wrong_per_lane_sums_added_without_rescale.py"


def test_lane_sums_without_rescale_fail_every_row_longer_than_one(worker):
    result = verify(worker, "8/softmax", SM_LANES)
    assert all(c["passed"] == (c["params"]["N"] == 1) for c in result["cases"]), [
        (c["name"], c["passed"]) for c in result["cases"]
    ]


def test_lane_sums_without_rescale_is_a_per_row_scale(worker):
    diag = first(verify(worker, "8/softmax", SM_LANES))
    assert diag.get("cause") == "row-scaled" and "what the row is divided by" in diag["message"], diag


def test_lane_sums_without_rescale_names_the_combine(worker):
    diag = first(verify(worker, "8/softmax", SM_LANES))
    assert diag.get("line") == line_of(SM_LANES, "s = tl.sum(s_lane, axis=0)"), diag


# was a strict xfail (finding 2): one case (M=2, N=5000 fp16 seed 1) read 'each chunk of 64 columns is the answer
# times its own factor' — fp16's atol let a 64-wide block of tiny values take any factor; refit.chunk_scale now
# needs a row that no one factor fits
def test_lane_sums_without_rescale_is_never_read_as_a_per_chunk_scale(worker):
    causes = [d.get("cause") for c in failing(verify(worker, "8/softmax", SM_LANES)) for d in c["diagnoses"]]
    assert "per-chunk-scale" not in causes, causes


# --- 8/softmax-rows -------------------------------------------------------------------------------------------

SR_ONE = "l08_softmax_rows_wrong_one_row_path_exp_without_max.py"


def _rows_of(c: dict) -> int:
    """The ROWS a case runs with: the variant's, or the file's pick (1 from rows of 1024 on, else <= 4)."""
    if c["kwargs"].get("ROWS"):
        return c["kwargs"]["ROWS"]
    block = 1 << max(c["params"]["N"] - 1, 0).bit_length()
    return min(1024 // block, 4) if block <= 1024 else 1


def test_one_row_path_fails_exactly_where_rows_is_one(worker):
    result = verify(worker, "8/softmax-rows", SR_ONE)
    assert all(c["passed"] == (_rows_of(c) != 1) for c in result["cases"]), [
        (c["name"], c["passed"]) for c in result["cases"]
    ]


# was a strict xfail (finding 3): 'your kernel already subtracts a maximum' from a regex over the whole file; the
# ROWS == 1 branch these cases run takes tl.exp(row) unshifted — verify._unshifted_exp reads each exp
def test_one_row_path_names_the_unshifted_exp(worker):
    diag = first(verify(worker, "8/softmax-rows", SR_ONE))
    assert "already subtracts a maximum" not in diag.get("message", ""), diag
    assert diag.get("line") == line_of(SR_ONE, "numerator = tl.exp(row)"), diag


# --- 9/matmul -------------------------------------------------------------------------------------------------

MM_GROUP = "l09_matmul_wrong_grouped_order_pid_n_divides_by_group_m.py"


def test_pid_n_by_group_m_fails_only_on_a_short_last_group(worker):
    bad = failing(verify(worker, "9/matmul", MM_GROUP))
    assert bad and all(c["params"]["M"] == 33 and c["kwargs"].get("GROUP_M") == 2 for c in bad), [
        c["name"] for c in bad
    ]


def test_pid_n_by_group_m_says_programs_meet_on_a_tile(worker):
    diag = first(verify(worker, "9/matmul", MM_GROUP))
    assert diag.get("cause") == "tile-map" and diag.get("programs") == diag.get("tiles") == 9, diag


def test_pid_n_by_group_m_names_the_pid_n_line(worker):
    diag = first(verify(worker, "9/matmul", MM_GROUP))
    assert diag.get("line") == line_of(MM_GROUP, "pid_n = (pid % num_pid_in_group) // GROUP_M"), diag
    assert "group_size_m" in diag["message"] and "1 elements" not in diag["message"], diag["message"]


# --- 9/matmul-bias --------------------------------------------------------------------------------------------

MB_BIAS = "l09_matmul_bias_wrong_bias_offsets_without_tile_start.py"


def test_bias_without_tile_start_fails_only_past_the_first_column_tile(worker):
    bad = failing(verify(worker, "9/matmul-bias", MB_BIAS))
    assert bad and all(c["params"]["N"] > 32 for c in bad), [c["name"] for c in bad]


def test_bias_without_tile_start_names_the_bias_offsets(worker):
    diag = first(verify(worker, "9/matmul-bias", MB_BIAS))
    assert diag.get("cause") is not None and "bias" in diag["message"], diag
    assert diag.get("line") in (
        line_of(MB_BIAS, "bias_cols = tl.arange(0, BLOCK_N)"),
        line_of(MB_BIAS, "bias = tl.load(bias_ptr"),
    ), diag


# --- 9/matmul-fast --------------------------------------------------------------------------------------------

MF_PAD = "l09_matmul_fast_wrong_a_padded_along_k_b_left_short.py"


def test_a_padded_b_short_stops_at_the_even_k_load_of_b(worker):
    error = verify(worker, "9/matmul-fast", MF_PAD)["error"]
    assert error["kind"] == "oob" and error["detail"]["arg"] == "b_ptr", error
    assert error["line"] == line_of(MF_PAD, "b = tl.load(b_ptrs, mask=n_ok, other=0.0)"), error
    assert error["detail"]["promise"]["name"] == "EVEN_K", error["detail"]


# was a strict xfail (finding 6): 'fix how the wrapper computes EVEN_K', though EVEN_K holds for the K passed
# (K_pad = 32); the oob's promise_size now names K_pad passed as K past B's one row
def test_a_padded_b_short_blames_the_padded_k_not_even_k(worker):
    error = verify(worker, "9/matmul-fast", MF_PAD)["error"]
    assert "fix how the wrapper computes EVEN_K" not in error["message"], error["message"]
    assert "K_pad" in error["message"], error["message"]


# --- 10/autotune-matmul ---------------------------------------------------------------------------------------

AT_ZERO = "l10_autotune_wrong_decode_configs_group_m_zero.py"
SMALLEST = "M=1, N=1, K=1 · float16 · @autotune=smallest"
LARGEST = "M=1, N=1, K=1 · float16 · @autotune=largest"


def test_group_m_zero_fails_only_on_pinned_gpu_configs(worker):
    bad = failing(verify(worker, "10/autotune-matmul", AT_ZERO))
    assert bad and all("@autotune=" in c["name"] for c in bad), [c["name"] for c in bad]


def test_group_m_zero_names_the_division_and_its_divisor(worker):
    diag = case(verify(worker, "10/autotune-matmul", AT_ZERO), SMALLEST)["diagnoses"][0]
    assert diag["kind"] == "zero-division", diag
    assert diag["line"] == line_of(AT_ZERO, "group_id = pid // num_pid_in_group"), diag
    made = diag["zero_division"]
    assert made["divisor"] == "num_pid_in_group", made
    assert made["made_line"] == line_of(AT_ZERO, "num_pid_in_group = GROUP_M * num_pid_n"), made


# was a strict xfail (finding 7): 'an integer %' at a // line (the interpreter's // warns 'fmod' too): the
# operator is now read from the line
def test_group_m_zero_names_the_operator_of_its_line(worker):
    diag = case(verify(worker, "10/autotune-matmul", AT_ZERO), SMALLEST)["diagnoses"][0]
    assert diag["zero_division"]["op"] == "//", diag["zero_division"]


# was a strict xfail (finding 8): the division was traced to GROUP_M * num_pid_n, not to the triton.Config
# that sets GROUP_M = 0 (the largest case: while the autotuner timed it)
def test_group_m_zero_names_the_config(worker):
    result = verify(worker, "10/autotune-matmul", AT_ZERO)
    for name in (SMALLEST, LARGEST):
        message = case(result, name)["diagnoses"][0]["message"]
        assert "GROUP_M = 0" in message or '"GROUP_M": 0' in message, (name, message)


# --- 10/debug-rms-norm ----------------------------------------------------------------------------------------

RMS_LE = "l10_rms_wrong_mask_less_or_equal_n.py"


def test_mask_less_or_equal_stops_at_the_first_load_past_the_row(worker):
    error = verify(worker, "10/debug-rms-norm", RMS_LE)["error"]
    assert error["kind"] == "oob" and error["detail"]["arg"] == "x_ptr", error
    assert error["line"] == line_of(RMS_LE, "x = tl.load(x_ptr + row * stride_xm"), error
    assert error["detail"]["mask"] == "mask = cols <= N" and error["detail"]["span"] == [1, 1], error[
        "detail"
    ]
    assert "it must be False for every offset past the end" in error["message"], error["message"]


def test_mask_less_or_equal_says_off_by_one(worker):
    error = verify(worker, "10/debug-rms-norm", RMS_LE)["error"]
    assert "cols < N" in error["message"], error["message"]
    # the access keeps its line; the mask's own line is a fact of its own (finding 9)
    assert error["line"] == line_of(RMS_LE, "x = tl.load(x_ptr"), error
    assert error["detail"]["mask_line"] == line_of(RMS_LE, "mask = cols <= N"), error["detail"]
