"""Probe round 7, lessons 8-10: held-out learner files for softmax, row sum, softmax-rows, matmul, matmul-bias,
matmul-fast, autotune-matmul and debug-rms-norm, written in the idioms of sources nobody here wrote (the official
tutorials, the old triton.ops.matmul, Liger-Kernel, Gemma) and from the lesson texts and starters, not kernels/.

Correct-but-different files (tl.max with return_indices and a tl.reduce sum; three chunked passes with tl.range;
a persistent softmax-rows with keep_dims; a Kahan row sum with tl.multiple_of hints; split-K with atomics into an
fp32 workspace and a cast kernel; B's tile loaded as B^T and tl.trans'd, input_precision="ieee"; C^T = B^T A^T with
swapped operands and allow_tf32=False; the bias seeding the accumulator; wrapped offsets (% M) with a true EVEN_K;
split-K autotune configs with a zeroing Config pre_hook; a perf_model + top_k prune with warmup/rep) must pass.

Realistic wrong files must fail, and the first diagnosis must name the real cause (and the learner's line where the
lab gives one). Tests marked xfail state the RIGHT verdict where the lab is wrong or misleading today; strict, so
they fail loudly once fixed. The report with the lab's verdict for every file was handed to the lead with this round.
"""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round7_08_10"


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


SM = "8/softmax"
RS = "8/row-sum"
SR = "8/softmax-rows"
MM = "9/matmul"
MB = "9/matmul-bias"
MF = "9/matmul-fast"
AT = "10/autotune-matmul"
RMS = "10/debug-rms-norm"

# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    (SM, "l08_softmax_ok_max_indices_reduce_sum.py"),
    (SM, "l08_softmax_ok_three_pass_chunked_trange.py"),
    (SR, "l08_softmax_rows_ok_grid_stride_tiles.py"),
    (RS, "l08_row_sum_ok_kahan_trange_hints.py"),
    (MM, "l09_matmul_ok_split_k_atomic_cast_kernel.py"),
    (MM, "l09_matmul_ok_b_tile_loaded_transposed.py"),
    (MM, "l09_matmul_ok_ct_from_swapped_operands.py"),
    (MB, "l09_matmul_bias_ok_bias_seeds_accumulator.py"),
    (MF, "l09_matmul_fast_ok_wrapped_offsets_even_k.py"),
    (AT, "l10_autotune_ok_split_k_config_pre_hook.py"),
    (AT, "l10_autotune_ok_perf_model_top_k.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


def test_split_k_pre_hook_ran_on_the_pinned_configs(worker):
    """The pinned cases ran the file's largest tile (SPLIT_K = 1, a plain store) and its smallest (SPLIT_K = 2,
    atomics after the config's zeroing pre_hook): the pass is not the interpreter's one config only."""
    result = verify(worker, AT, "l10_autotune_ok_split_k_config_pre_hook.py")
    names = [c["name"] for c in result["cases"]]
    assert any("@autotune=largest" in n for n in names) and any("@autotune=smallest" in n for n in names)


def test_rms_liger_rstd_side_buffer_is_not_called_a_second_read(worker):
    """Was a perf-bytes failure ('it reads some data more than once'): loads are held to the budget now, a side
    store of rstd is not a re-read."""
    result = verify(worker, RMS, "l10_rms_ok_liger_rstd_side_buffer.py")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


# --- lesson 8: softmax -----------------------------------------------------------------------------------------------


def test_softmax_max_over_zero_padding_fails_on_the_low_row(worker):
    """The max over a block padded with 0.0 (exp masked by tl.where) only shows on a row whose values are all
    below about -87: the lesson's low_row contract moves row 0 to [-121, -119), where every exp(x - 0)
    underflows and the row becomes 0 / 0. Only ragged rows have padding, and only row 0 is wrong."""
    result = verify(worker, SM, "l08_softmax_wrong_max_pad_zero_where_exp.py")
    assert not result["passed"] and result.get("error") is None, result.get("error")
    bad = public_failed(result)
    assert bad and all(c["params"]["N"] & (c["params"]["N"] - 1) for c in bad)
    diag = first_diag(result)
    assert diag["kind"] == "nan" and diag["rows"] == [0] and diag.get("cause") == "low-row", diag
    assert "padding must load as -inf" in diag["message"], diag["message"]


def test_softmax_exp2_without_log2e_fails_on_every_multi_value_row(worker):
    result = verify(worker, SM, "l08_softmax_wrong_exp2_without_log2e.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["N"] >= 2 for c in bad)
    assert first_diag(result)["kind"] == "mismatch", first_diag(result)


def test_softmax_exp2_without_log2e_names_log2e(worker):
    """Was a bare mismatch; the output is softmax(x · ln 2): exp2 without log2(e) (cause softmax-scale, ln2)."""
    diag = first_diag(verify(worker, SM, "l08_softmax_wrong_exp2_without_log2e.py"))
    assert "log2" in diag["message"], diag["message"]
    assert diag.get("cause") == "softmax-scale" and diag.get("form") == "ln2", diag


# --- lesson 8: row-sum -----------------------------------------------------------------------------------------------


def test_row_sum_mask_without_start_stops_at_the_chunk_load(worker):
    name = "l08_row_sum_wrong_mask_without_start.py"
    error = stops_at(verify(worker, RS, name), "oob", name, "chunk = tl.load(")
    assert "x_ptr" in error["message"] and "lanes < n_cols" in error["message"], error["message"]


def test_row_sum_mask_without_start_names_the_chunk_offset(worker):
    """Was 'the mask (lanes < n_cols) lets these lanes through'; now names cols = start + lanes (loop_offset)."""
    result = verify(worker, RS, "l08_row_sum_wrong_mask_without_start.py")
    message = first_message(result)
    assert "cols = start + lanes" in message and "bound cols" in message, message


def test_row_sum_row_start_from_n_cols_stops_at_the_chunk_load(worker):
    """x is a slice of wider rows (layout = "sliced", row stride N + 5 at N = 7 in float32): row 1 started at
    n_cols reads the gap between rows 0 and 1, where the lab stops and points at the strides."""
    name = "l08_row_sum_wrong_row_start_from_n_cols.py"
    error = stops_at(verify(worker, RS, name), "oob", name, "chunk = tl.load(")
    assert error["detail"]["reason"] == "gap" and error["detail"]["arg"] == "x_ptr", error["detail"]
    assert "strided view" in error["message"] and "strides" in error["message"], error["message"]


# --- lesson 8: softmax-rows ------------------------------------------------------------------------------------------


def test_softmax_rows_broadcast_as_row_stops_at_the_store(worker):
    name = "l08_softmax_rows_wrong_axis1_broadcast_as_row.py"
    stops_at(verify(worker, SR, name), "compile", name, "tl.store(out_ptrs")


def test_softmax_rows_broadcast_as_row_names_the_broadcast(worker):
    """Was Triton's raw store error; the per-row [None, :] broadcast is named now."""
    result = verify(worker, SR, "l08_softmax_rows_wrong_axis1_broadcast_as_row.py")
    error = result["error"]
    assert error.get("cause") == "shape-mismatch", error
    assert "[:, None]" in error["message"], error["message"]


# --- lesson 9: matmul ------------------------------------------------------------------------------------------------


def test_matmul_grouped_order_unclamped_group_leaves_the_last_tile_unwritten(worker):
    """The tile variant passes GROUP_M = 2 with 16-row tiles: M = 33 has 3 tile rows, so the last band is one
    row short, and without min(num_pid_m - first_pid_m, GROUP_M) the last tile (here the single element
    [32, 64]) is never written. Full bands (M = 17, 32) and GROUP_M = 1 (the default tiles) stay right."""
    result = verify(worker, MM, "l09_matmul_wrong_grouped_group_size_unclamped.py")
    assert not result["passed"] and result.get("error") is None, result.get("error")
    bad = public_failed(result)
    assert bad and all("GROUP_M=2" in c["name"] and c["params"]["M"] == 33 for c in bad), [
        c["name"] for c in bad
    ]
    diag = first_diag(result)
    assert diag["kind"] == "unwritten" and diag["rows"] == [[32, 32]] and diag["cols"] == [[64, 64]], diag
    assert "pid_m" in diag["message"], diag["message"]


def test_matmul_split_k_plain_store_fails(worker):
    result = verify(worker, MM, "l09_matmul_wrong_split_k_plain_store_race.py")
    assert not result["passed"] and result.get("error") is None, result.get("error")
    assert first_diag(result)["kind"] == "mismatch"


def test_matmul_split_k_plain_store_names_the_race(worker):
    """Was 'the accumulator is re-created inside the K loop'; the splits' overlapping stores are named."""
    result = verify(worker, MM, "l09_matmul_wrong_split_k_plain_store_race.py")
    diag = first_diag(result)
    assert diag.get("cause") == "stored-over", diag
    assert "more than one program" in diag["message"], diag["message"]


# --- lesson 9: matmul-bias -------------------------------------------------------------------------------------------


def test_matmul_bias_mask_uses_m_fails_from_column_m(worker):
    result = verify(worker, MB, "l09_matmul_bias_wrong_bias_mask_uses_m.py")
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag["cols"] == [[17, 32]], diag  # M = 17, N = 33


def test_matmul_bias_mask_uses_m_names_the_bias(worker):
    """Was a bare column range; the output is the reference less the bias from column M on (input-missing)."""
    diag = first_diag(verify(worker, MB, "l09_matmul_bias_wrong_bias_mask_uses_m.py"))
    assert "bias" in diag["message"], diag["message"]
    assert diag.get("cause") == "input-missing" and (diag["first_col"], diag["last_col"]) == (17, 32), diag


# --- lesson 10: autotune-matmul --------------------------------------------------------------------------------------


def test_autotune_split_k_without_reset_fails(worker):
    """Was a false pass: one interpreter config never benchmarks. The pinned cases now let the autotuner time the
    pinned config and a twin (one run each, as a GPU does), so C comes out 3x A @ B; the cause names it."""
    result = verify(worker, AT, "l10_autotune_wrong_split_k_atomic_no_reset.py")
    assert not result["passed"] and "reset_to_zero" in first_message(result)
    bad = public_failed(result)
    assert bad and all("@autotune=" in c["name"] for c in bad), [c["name"] for c in bad]
    assert first_diag(result).get("cause") == "autotune-side-effect" and first_diag(result)["runs"] == 3


def test_autotune_perf_model_with_prune_signature_fails(worker):
    """Was a false pass: Triton calls perf_model(**nargs, **kwargs, **config.all_kwargs()) once per GPU config
    (TypeError for a prune-style signature); the lab makes that call on the interpreter too."""
    result = verify(worker, AT, "l10_autotune_wrong_perf_model_prune_signature.py")
    assert not result["passed"] and "perf_model" in first_message(result)
    assert result["error"].get("cause") == "perf-model" and result["error"].get("model") == "estimate_ms"


# --- lesson 10: debug-rms-norm ---------------------------------------------------------------------------------------


def test_rms_gemma_weight_offset_fails_except_the_zero_row(worker):
    result = verify(worker, RMS, "l10_rms_wrong_gemma_weight_offset.py")
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and [0, 0] not in diag["rows"], diag
    assert all(c["params"]["N"] > 1 for c in public_failed(result))


def test_rms_gemma_weight_offset_names_the_weight(worker):
    """Was a bare mismatch; every column is the reference times (1 + w) / w (input-factor, one-plus)."""
    diag = first_diag(verify(worker, RMS, "l10_rms_wrong_gemma_weight_offset.py"))
    assert "weight" in diag["message"], diag["message"]
    assert diag.get("cause") == "input-factor" and diag.get("form") == "one-plus", diag


def test_rms_eps_added_after_sqrt_fails_on_the_eps_case(worker):
    """1 / (sqrt(ms) + eps) differs from rsqrt(ms + eps) by about eps / rms: invisible at eps = 1e-6 on rows of
    RMS ~ 20, about 5 % in the case that passes eps = 1 (sqrt(eps) next to the RMS, as with tiny activations).
    Every row there is off by its own factor, and the zero row is right in both forms."""
    result = verify(worker, RMS, "l10_rms_wrong_eps_added_after_sqrt.py")
    assert not result["passed"] and result.get("error") is None, result.get("error")
    bad = public_failed(result)
    assert bad and all(c["params"].get("eps") == 1.0 for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag.get("cause") == "row-scaled", diag
    assert [0, 0] not in diag["rows"] and "eps inside the square root" in diag["message"], diag["message"]


def test_rms_in_place_into_x_is_returned_input(worker):
    result = verify(worker, RMS, "l10_rms_wrong_in_place_into_x.py")
    assert not result["passed"] and len(public_failed(result)) == 15  # every listed case: 5 sizes x 3 dtypes
    diag = first_diag(result)
    assert diag["kind"] == "returned-input" and diag["input"] == "x", diag
