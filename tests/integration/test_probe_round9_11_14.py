"""Probe round 9, lessons 11-14: held-out learner files nobody here wrote, none of them tried by rounds 1-8.

Correct-but-different files (FlashAttention with BLOCK_N wider than BLOCK_M, the causal diagonal visited first,
flash-decoding's split-KV with a merge kernel; an online softmax over two rows per program; an RMS backward in
one single-program launch, and a stage 2 that tl.atomic_add's exactly two halves into zeros — order-free, so
bitwise reproducible; contiguous tile ranges and a serpentine order in the persistent GEMM; an autotuned SwiGLU;
the SwiGLU backward as triton_op operators with register_autograd; cross-entropy over [ROWS, BLOCK_V] row tiles)
must pass.
Realistic wrong files (a causal mask on block-local query indices; log2(e) folded into the default scale only;
p cast to a hard-coded float16; the starter's causal split kept with BLOCK_N > BLOCK_M; pass 1's mask without the
chunk start; rstd loaded at the program's index; the mean term without the weight; stage 2 launched as one
program; a schema string torch's triton_op ignores; a backward without the rstd gradient parameter; pid_n divided
by GROUP_M; tile_coords called with the grid sizes swapped; B's descriptor coordinates swapped; a grid that
divides by another block than the launch; silu' with a parenthesis slip; a backward without dc; cross-entropy
terms against the old max; the loss stored at the logits' row offset) must fail with a first diagnosis naming
the real cause (and the learner's line where the lab gives one). Fakes (torch's softmax with a Triton P @ V;
torch.autograd in a registered backward; small problems handed to torch; silu in torch, also written as
math.e ** -a; the straight-through trick; a backward operator whose body is torch; numpy's logsumexp; a
descriptor exercise with no descriptor; one key tile for the whole sequence) must fail.
Tests that were strict xfails (the RIGHT verdict where the lab was wrong, vague or misleading) now pass: the
twenty-first and twenty-second sessions closed every one; their docstrings say what the lab said before.
"""

from pathlib import Path

import pytest

from tritonlab.present.diagnoses import describe
from tritonlab.present.verify import summary

PROBES = Path(__file__).parent / "probe_round9_11_14"

OS, AT = "11/online-softmax", "11/attention"
RB, RO = "12/rms-norm-backward", "12/rms-norm-op"
PM, MD = "13/persistent-matmul", "13/matmul-descriptors"
SW, SB, CE = "14/swiglu", "14/swiglu-backward", "14/cross-entropy"


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
    """Failing fixed cases (the random case of each verify has a secret size: left out of the exact checks)."""
    return [c for c in failed(result) if "random" not in c["name"] and c.get("kind") != "reject"]


def first_diag(result) -> dict:
    cases = failed(result)
    assert cases, "expected a failing case"
    return cases[0]["diagnoses"][0]


def line_of(name, snippet, after=None) -> int:
    """The first code line (not the docstring: the stripped line must start with the snippet) holding
    `snippet`, after the line holding `after` when given."""
    lines = (PROBES / name).read_text().splitlines()
    start = 0 if after is None else next(i for i, line in enumerate(lines) if after in line)
    return next(i for i, line in enumerate(lines, 1) if i > start and line.strip().startswith(snippet))


def outputs_named(result) -> set:
    """The gradient-mode outputs (out, grad_x, grad_w, grad_a, grad_b) that the failing cases' diagnoses name."""
    return {d.get("output") for c in failed(result) for d in c["diagnoses"]}


def assert_fails(result):
    assert not result["passed"], "a wrong file passed"


def assert_worded(facts):
    """The diagnosis (or error) has a sentence in both languages."""
    en, ja = describe(facts, "en"), describe(facts, "ja")
    assert en.strip() and ja.strip(), (en, ja)
    assert en != ja, en


def value_cases(result) -> list:
    return [c for c in result["cases"] if c.get("kind") != "reject"]


# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    (AT, "l11_attention_ok_block_n_wider_than_block_m.py"),
    (AT, "l11_attention_ok_diagonal_block_first.py"),
    (AT, "l11_attention_ok_split_kv_two_kernels.py"),
    (OS, "l11_online_softmax_ok_two_rows_per_program.py"),
    (RB, "l12_rms_backward_ok_one_program_one_launch.py"),
    (RB, "l12_rms_backward_ok_stage2_two_halves_atomic.py"),
    (PM, "l13_persistent_matmul_ok_contiguous_tile_ranges.py"),
    (PM, "l13_persistent_matmul_ok_snake_order_in_group.py"),
    (SW, "l14_swiglu_ok_autotuned_block_size.py"),
    (SB, "l14_swiglu_backward_ok_triton_op_register_autograd.py"),
    (CE, "l14_cross_entropy_ok_row_tiles_online.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


def test_two_halves_atomic_stage2_keeps_its_bits_in_reverse_order(worker):
    """Two addends into an exact zero commute: the reversed-order float32 case was checked and kept grad_w."""
    result = verify(worker, RB, "l12_rms_backward_ok_stage2_two_halves_atomic.py")
    checked = [c for c in result["cases"] if (c.get("deterministic") or {}).get("checked")]
    assert len(checked) == 1 and checked[0]["passed"], [c.get("deterministic") for c in result["cases"]]


# --- lesson 11: online softmax ----------------------------------------------------------------------------------------

MASK_START = "l11_online_softmax_wrong_pass1_mask_without_chunk_start.py"


def test_online_softmax_pass1_mask_without_start_is_an_oob_naming_the_mask(worker):
    result = verify(worker, OS, MASK_START)
    assert_fails(result)
    error = result["error"]
    assert error["kind"] == "oob" and error["detail"]["arg"] == "input_ptr", error
    assert error["detail"]["reason"] == "past_end" and "BLOCK_SIZE=64" in error["case"], error
    assert error["line"] == line_of(MASK_START, "x = tl.load(in_row"), error
    assert "start + cols" in error["message"] and "mask = cols < n_cols" in error["message"], error["message"]
    assert_worded(error)


# --- lesson 11: attention -----------------------------------------------------------------------------------------------

LOCAL_ROWS = "l11_attention_wrong_causal_mask_block_local_rows.py"


def test_attention_causal_mask_on_block_local_rows_fails_rows_past_the_first_query_block(worker):
    result = verify(worker, AT, LOCAL_ROWS)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["kwargs"].get("causal") and c["params"]["S"] > 32 for c in bad), [
        c["name"] for c in bad
    ]
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag["rows"][0][0] == 32, diag
    assert_worded(diag)


def test_attention_causal_mask_on_block_local_rows_names_the_mask(worker):
    """Was the wrong cause (loop-steps: non-causal cases with several key steps pass); cause local-index names
    the mask's line and the index the file already made (q_rows)."""
    diag = first_diag(verify(worker, AT, LOCAL_ROWS))
    assert diag.get("cause") == "local-index", diag
    assert diag["line"] == line_of(LOCAL_ROWS, "mask = mask & (offs_m[:, None]"), diag
    assert (diag["local"], diag["position"], diag["instead"]) == ("offs_m", "cols", "q_rows"), diag
    assert "param" not in diag and "block" not in diag  # the replaced loop-steps pattern's facts are gone
    assert "q_rows" in describe(diag, "ja")


SCALE = "l11_attention_wrong_explicit_scale_skips_log2e.py"


def test_attention_explicit_scale_without_log2e_is_named_as_the_scale(worker):
    result = verify(worker, AT, SCALE)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["kwargs"].get("sm_scale") == 0.5 for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag.get("cause") == "scale" and diag.get("form") == "ln2", diag
    assert abs(diag["factor"] - 0.6931) < 1e-3, diag
    assert "log2(e)" in diag["message"], diag["message"]
    assert_worded(diag)


P_FP16 = "l11_attention_wrong_p_cast_to_float16_hardcoded.py"


def test_attention_p_cast_to_float16_is_a_compile_error_at_the_dot_in_bfloat16(worker):
    result = verify(worker, AT, P_FP16)
    assert_fails(result)
    error = result["error"]
    assert error["kind"] == "compile" and "bfloat16" in error["case"], error
    assert error["line"] == line_of(P_FP16, "acc = tl.dot(p.to(tl.float16)"), error
    assert "fp16 and bf16" in error["message"], error["message"]
    assert_worded(error)


SPLIT = "l11_attention_wrong_causal_split_assumes_block_m_multiple.py"


def test_attention_causal_split_with_block_n_wider_fails_causal_cases_only(worker):
    result = verify(worker, AT, SPLIT)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["kwargs"].get("causal") and c["params"]["S"] > 16 for c in bad), [
        c["name"] for c in bad
    ]
    diag = first_diag(result)
    # variant-only ("check what those keywords change") until the twenty-second session's split-not-multiple
    assert diag["kind"] == "mismatch" and diag.get("cause") == "split-not-multiple", diag
    assert_worded(diag)


def test_attention_causal_split_with_block_n_wider_names_the_range(worker):
    """Was vague (variant-only: "check what those keywords change"); cause split-not-multiple names the split
    line and the two tiles."""
    diag = first_diag(verify(worker, AT, SPLIT))
    assert diag.get("cause") == "split-not-multiple", diag
    assert diag.get("line") == line_of(SPLIT, "full_end = start_m * BLOCK_M", after="if CAUSAL"), diag
    assert (diag["tile"], diag["tile_value"], diag["block"], diag["block_value"]) == (
        "BLOCK_M",
        16,
        "BLOCK_N",
        32,
    )
    assert "variant" not in diag
    assert "BLOCK_N の倍数" in describe(diag, "ja")


def test_attention_torch_softmax_with_triton_pv_is_torch_work(worker):
    name = "l11_attention_fake_torch_softmax_then_triton_pv.py"
    result = verify(worker, AT, name)
    assert_fails(result)
    diag = first_diag(result)
    # p = softmax(q @ k^T) handed to the PV kernel: named by the last reduction on the way (the softmax)
    assert diag["kind"] == "torch-work" and diag["handed"], diag
    assert diag["line"] in {line_of(name, "scores = (q.float() @"), line_of(name, "p = torch.softmax(scores")}
    assert "softmax" in diag["message"] or "bmm" in diag["message"], diag["message"]
    assert all("torch-work" in kinds(c) for c in failed(result) if c.get("kind") != "reject")
    assert_worded(diag)


def test_attention_whole_sequence_in_one_key_tile_fails(worker):
    """Was an interpreter false pass (BLOCK_N = next_power_of_2(S): right at S <= 45, a 64 x 8192 score tile at
    the GPU's S = 4099): the loop contract's launch-only call at the largest GPU size names it (loop-once)."""
    result = verify(worker, AT, "l11_attention_wrong_whole_sequence_one_key_block.py")
    assert_fails(result)
    scale = [c for c in result["cases"] if c.get("kind") == "gpu-scale"]
    assert scale and scale[0]["diagnoses"][0]["kind"] == "loop-once", result["cases"][-1]
    diag = scale[0]["diagnoses"][0]
    assert (diag["param"], diag["value"], diag["block"], diag["block_value"]) == ("S", 4099, "BLOCK_N", 8192)


# --- lesson 12: RMS norm backward -------------------------------------------------------------------------------------

RSTD_PID = "l12_rms_backward_wrong_rstd_loaded_at_program_id.py"


def test_rms_backward_rstd_at_program_id_fails_from_row_p_on(worker):
    result = verify(worker, RB, RSTD_PID)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["params"]["M"] > 4 for c in bad), [c["name"] for c in bad]  # P = 4 programs
    assert "out" not in outputs_named(result)
    diag = first_diag(result)
    assert diag["output"] == "grad_x" and diag["rows"][0][0] == 4, diag
    assert_worded(diag)


def test_rms_backward_rstd_at_program_id_names_the_rstd_load(worker):
    """Was vague ("rows 4-9 differ", grad_w "check its formula"): cause pid-in-row-loop names the load."""
    diag = first_diag(verify(worker, RB, RSTD_PID))
    assert diag.get("cause") == "pid-in-row-loop", diag
    assert diag["line"] == line_of(RSTD_PID, "rstd = tl.load(rstd_ptr + pid)"), diag
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "index it by row" in en and "添字は row" in ja


def test_rms_backward_mean_term_without_weight_is_along_x_in_grad_x_only(worker):
    result = verify(worker, RB, "l12_rms_backward_wrong_mean_term_without_weight.py")
    assert_fails(result)
    assert outputs_named(result) == {"grad_x"}
    diag = first_diag(result)
    assert diag.get("cause") == "along-input" and diag["input"] == "x", diag
    assert "mean" in diag["message"], diag["message"]
    assert_worded(diag)


def test_rms_backward_stage2_single_program_leaves_dw_columns_unwritten(worker):
    result = verify(worker, RB, "l12_rms_backward_wrong_stage2_single_program.py")
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["params"]["N"] > 128 for c in bad), [c["name"] for c in bad]
    assert outputs_named(result) == {"grad_w"}
    diag = first_diag(result)
    assert diag["kind"] == "unwritten" and diag.get("cause") == "grid-short", diag
    assert diag["count"] == 300 - 128, diag
    assert_worded(diag)


# --- lesson 12: RMS norm operators ------------------------------------------------------------------------------------

SCHEMA = "l12_rms_op_wrong_schema_string_without_annotations.py"


def test_rms_op_schema_string_without_annotations_fails_at_the_decorator(worker):
    """torch 2.13's triton_op takes schema= but infers the schema from the type hints anyway."""
    result = verify(worker, RO, SCHEMA)
    assert_fails(result)
    error = result["error"]
    assert error["kind"] == "runtime" and "type annotation" in error["message"], error
    assert error["line"] == line_of(SCHEMA, "@triton_op("), error
    assert_worded(error)


NO_DRSTD = "l12_rms_op_wrong_backward_without_rstd_grad_param.py"


def test_rms_op_backward_without_rstd_grad_param_is_a_type_error(worker):
    result = verify(worker, RO, NO_DRSTD)
    assert_fails(result)
    error = result["error"]
    assert error["kind"] == "runtime" and "_backward() takes 2 positional arguments" in error["exception"], (
        error
    )
    assert_worded(error)


def test_rms_op_backward_without_rstd_grad_param_names_the_signature(worker):
    """Was Python's bare TypeError with no line: cause backward-arity names the def and the counts."""
    error = verify(worker, RO, NO_DRSTD)["error"]
    assert error.get("cause") == "backward-arity" and (error["takes"], error["given"]) == (1, 2), error
    assert "141 行目" in describe(error, "ja") or "行目" in describe(error, "ja")
    assert error.get("line") == line_of(NO_DRSTD, "def _backward(ctx, dy):"), error


def test_rms_op_backward_by_torch_autograd_is_no_kernel_in_the_backward(worker):
    result = verify(worker, RO, "l12_rms_op_fake_backward_by_torch_autograd.py")
    assert_fails(result)
    assert len(failed(result)) == len(value_cases(result))
    diag = first_diag(result)
    assert diag["kind"] == "no-kernel-launched" and "backward" in diag["message"], diag
    assert {"op-not-used"} <= kinds(failed(result)[0])  # torch's gradients are returned, not handed
    assert_worded(diag)


def test_rms_op_backward_operator_body_in_torch_fails(worker):
    """Was a false pass: a dispatch mode is off inside its own handler, so the operator's body went unwatched;
    torch_work now runs a learner operator's body under a fresh mode (twenty-second session)."""
    result = verify(worker, RO, "l12_rms_op_fake_bwd_op_body_in_torch.py")
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "torch-work" and diag["line"] == line_of(
        "l12_rms_op_fake_bwd_op_body_in_torch.py", "partial = (dyf * x_hat).contiguous()"
    ), diag


# --- lesson 13: persistent matmul -------------------------------------------------------------------------------------

PID_N = "l13_persistent_matmul_wrong_pid_n_divides_by_group_m.py"


def test_persistent_pid_n_by_group_m_fails_the_default_variant_and_names_the_mapping(worker):
    result = verify(worker, PM, PID_N)
    assert_fails(result)
    bad = public_failed(result)
    # pid_n divided by GROUP_M: right only where GROUP_M is 1 or the tile grid is one group wide — the default
    # variant (GROUP_M = 8) and the short-group variant (GROUP_M = 3, twenty-fifth session) fail, GROUP_M = 1 passes
    assert bad and all(c["kwargs"].get("GROUP_M") in (None, 3) and c["params"]["M"] > 1 for c in bad), [
        c["name"] for c in bad
    ]
    assert any("GROUP_M" not in c["kwargs"] for c in bad)
    case = failed(result)[0]
    assert {"unwritten", "stored-twice"} <= kinds(case), kinds(case)
    twice = next(d for d in case["diagnoses"] if d["kind"] == "stored-twice")
    assert "not GROUP_M" in twice["message"], twice["message"]
    assert_worded(twice)


def test_persistent_pid_n_by_group_m_does_not_blame_the_loop(worker):
    """Was tile-loop: the loop takes every id, so the mapping is named (cause tile-id-map)."""
    diag = first_diag(verify(worker, PM, PID_N))
    assert diag.get("cause") == "tile-id-map", diag


SWAPPED = "l13_persistent_matmul_wrong_tile_coords_args_swapped.py"


def test_persistent_tile_coords_args_swapped_leaves_tiles_unwritten(worker):
    result = verify(worker, PM, SWAPPED)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["params"]["M"] > 1 for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag["kind"] == "unwritten", diag
    assert_worded(diag)


def test_persistent_tile_coords_args_swapped_names_the_mapping(worker):
    """Was tile-loop: cause tile-id-map names the tile_coords call's line."""
    diag = first_diag(verify(worker, PM, SWAPPED))
    assert diag.get("cause") == "tile-id-map", diag
    assert (
        diag.get("line") == line_of(SWAPPED, "pid_m, pid_n = tile_coords(")
        or "tile_coords" in diag["message"]
    )


def test_persistent_small_problems_to_torch_are_no_kernel(worker):
    name = "l13_persistent_matmul_fake_small_problems_to_torch.py"
    result = verify(worker, PM, name)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["params"]["M"] < 63 for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag["kind"] == "no-kernel-launched", diag
    # torch's product is returned, never handed to a kernel: torch-work (which counts what kernels are handed)
    # has nothing to add to no-kernel-launched
    assert_worded(diag)


# --- lesson 13: tensor descriptors ------------------------------------------------------------------------------------

B_COORDS = "l13_matmul_descriptors_wrong_b_load_coordinates_swapped.py"


def test_descriptors_b_coordinates_swapped_fails_every_multi_step_case(worker):
    result = verify(worker, MD, B_COORDS)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["params"]["K"] > 32 for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag.get("cause") == "k-steps", diag
    assert_worded(diag)


def test_descriptors_b_coordinates_swapped_names_the_descriptor_load(worker):
    """Was pointer advice in a descriptor exercise: k-steps now speaks of the descriptor loads' coordinates."""
    diag = first_diag(verify(worker, MD, B_COORDS))
    assert "stride_ak" not in diag["message"], diag["message"]
    assert diag["cause"] == "k-steps" and diag["descriptors"] and "座標" in describe(diag, "ja"), diag


def test_descriptors_exercise_without_any_descriptor_fails(worker):
    """Was a false pass: the exercise's contract calls_any now asks for a descriptor call (api-missing)."""
    result = verify(worker, MD, "l13_matmul_descriptors_wrong_pointer_loads_no_descriptors.py")
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "api-missing" and "make_tensor_descriptor" in diag["names"], diag
    assert "make_tensor_descriptor" in describe(diag, "ja")


# --- lesson 14: SwiGLU ------------------------------------------------------------------------------------------------


def test_swiglu_grid_divided_by_another_block_is_unwritten_by_grid(worker):
    result = verify(worker, SW, "l14_swiglu_wrong_grid_block_differs_from_launch_block.py")
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["params"]["M"] * c["params"]["N"] > 512 for c in bad), [c["name"] for c in bad]
    assert all(c["diagnoses"][0]["kind"] == "unwritten" for c in bad)
    diag = first_diag(result)
    assert diag.get("cause") == "one-program" and "grid" in diag["message"], diag
    wide = next(c for c in bad if c["params"] == {"M": 16, "N": 100})["diagnoses"][0]
    assert wide.get("cause") == "grid-fewer-programs" and "2 programs for 4 blocks" in wide["message"], wide
    assert_worded(diag)
    assert_worded(wide)


def test_swiglu_silu_in_torch_is_torch_work(worker):
    name = "l14_swiglu_fake_silu_in_torch_kernel_multiplies.py"
    result = verify(worker, SW, name)
    assert_fails(result)
    assert len(failed(result)) == len(value_cases(result))
    diag = first_diag(result)
    assert diag["kind"] == "torch-work" and diag["op"] == "silu", diag
    assert diag["line"] == line_of(name, "g = F.silu(a.float())"), diag
    assert_worded(diag)


def test_swiglu_sigmoid_as_a_power_in_torch_fails(worker):
    """Was a false pass (pow and div are not HEAVY); the gate torch computed is handed to the kernel."""
    result = verify(worker, SW, "l14_swiglu_fake_sigmoid_as_power_in_torch.py")
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "torch-work" and diag["handed"] and diag["input"] == "a", diag


# --- lesson 14: SwiGLU backward ---------------------------------------------------------------------------------------


def test_swiglu_backward_dsilu_parenthesis_slip_breaks_grad_a_only(worker):
    result = verify(worker, SB, "l14_swiglu_backward_wrong_dsilu_parenthesis_slip.py")
    assert_fails(result)
    assert outputs_named(result) == {"grad_a"}
    diag = first_diag(result)
    assert diag["output"] == "grad_a" and "formula in the backward" in diag["message"], diag
    assert_worded(diag)


NO_DC = "l14_swiglu_backward_wrong_backward_ignores_dc.py"


def test_swiglu_backward_without_dc_breaks_both_gradients(worker):
    result = verify(worker, SB, NO_DC)
    assert_fails(result)
    assert outputs_named(result) == {"grad_a", "grad_b"}
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag["output"] == "grad_a", diag
    assert_worded(diag)


def test_swiglu_backward_without_dc_names_the_upstream_gradient(worker):
    """Was vague ('check its formula'): both gradients equal the reference's for dy = 1 (refit.upstream_ignored)."""
    result = verify(worker, SB, NO_DC)
    diag = first_diag(result)
    assert "dc" in diag["message"] or "upstream" in diag["message"], diag["message"]
    causes = {d.get("output"): d.get("cause") for d in failed(result)[0]["diagnoses"]}
    assert causes == {"grad_a": "upstream-ignored", "grad_b": "upstream-ignored"}, causes
    assert "連鎖律" in describe(diag, "ja")


def test_swiglu_backward_straight_through_is_no_kernel_in_the_backward(worker):
    name = "l14_swiglu_backward_fake_straight_through_autograd.py"
    result = verify(worker, SB, name)
    assert_fails(result)
    assert len(failed(result)) == len(value_cases(result))
    diag = first_diag(result)
    assert diag["kind"] == "no-kernel-launched" and "backward" in diag["message"], diag
    # the straight-through output is torch's, returned: no kernel is handed it (no torch-work needed)
    assert_worded(diag)


# --- lesson 14: cross-entropy -----------------------------------------------------------------------------------------

OLD_MAX = "l14_cross_entropy_wrong_block_terms_against_old_max.py"


def test_cross_entropy_terms_against_old_max_is_inf_in_every_row(worker):
    result = verify(worker, CE, OLD_MAX)
    assert_fails(result)
    assert (
        len(public_failed(result)) == 13
    )  # 12 fixed cases (V = 5000 since the twenty-second session), far rows
    assert all(c["diagnoses"][0]["kind"] == "nan" for c in failed(result))
    four = next(c for c in failed(result) if c["params"] == {"M": 4, "V": 300})["diagnoses"][0]
    assert four["ranges"] == [[0, 3]], four  # every row, not only the lifted row 0
    assert_worded(first_diag(result))


def test_cross_entropy_terms_against_old_max_is_not_blamed_on_the_high_row(worker):
    """Was high-row: the old-max cause now also reads a finite sentinel start (tl.full(..., -1e30))."""
    diag = first_diag(verify(worker, CE, OLD_MAX))
    assert diag.get("cause") == "old-max" and diag["start"] == "-1e30", diag
    assert diag["line"] == line_of(
        OLD_MAX, "s = s * tl.exp(m - m_new) + tl.exp(x - m)", after="def _ce_kernel"
    ), diag
    assert "-1e30" in describe(diag, "ja")


LOSS_OFFSET = "l14_cross_entropy_wrong_loss_stored_at_logits_row_offset.py"


def test_cross_entropy_loss_at_logits_row_offset_is_an_oob_store_naming_the_stride(worker):
    result = verify(worker, CE, LOSS_OFFSET)
    assert_fails(result)
    error = result["error"]
    assert error["kind"] == "oob" and error["detail"]["arg"] == "loss_ptr", error
    assert error["line"] == line_of(LOSS_OFFSET, "tl.store(loss_ptr + row * stride_row"), error
    assert "stride_row" in error["message"], error["message"]
    assert_worded(error)


def test_cross_entropy_small_vocab_to_torch_is_no_kernel(worker):
    name = "l14_cross_entropy_fake_small_vocab_to_torch.py"
    result = verify(worker, CE, name)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(c["params"]["V"] <= 1024 for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag["kind"] == "no-kernel-launched", diag
    assert "torch" in summary(result, "en") and summary(result, "ja")
    assert_worded(diag)


def test_cross_entropy_numpy_logsumexp_handed_to_a_gather_kernel_fails(worker):
    """Was a false pass: numpy computed the logsumexp. The input's values went to numpy (Tensor.numpy from a
    learner line) and the kernel was handed a buffer no operator made: torch-work, op numpy, handed."""
    name = "l14_cross_entropy_fake_numpy_logsumexp_kernel_gathers.py"
    result = verify(worker, CE, name)
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "torch-work" and diag["op"] == "numpy" and diag["handed"], diag
    assert diag["input"] == "logits" and "numpy" in describe(diag, "ja"), diag
