"""Probe round 7, lessons 11, 12 and 14: held-out learner files in the style of open-source kernels nobody here wrote
(Triton's official fused-attention tutorial, Liger-Kernel, Unsloth), and subtle slips real learners make, none of
them tried by rounds 1-6.

Correct-but-different files (the tutorial's STAGE split with l_i started at 1.0 and an additive -1.0e6 mask, tensor
descriptors over one head's slab; a max pass then a sum pass, a tl.reduce over (max, sum) pairs; dW as a torch sum
in the wrapper with @once_differentiable, the torch >= 2.0 forward/setup_context split, dx stored over dy; Liger's
row-per-program SwiGLU with silu cast before the product; SwiGLU backward with setup_context and
set_materialize_grads(False), float32 grads left for autograd to cast; Liger's scalar online cross-entropy with its
ignore_index/label_smoothing/reduction keywords) must pass.
Realistic wrong files (the tutorial's flat [Z*H*N_CTX, D] descriptor with N_CTX not a block multiple, p taken
against the old max, the default scale 1/d, BLOCK_N fitted below 16 at short sequences; dx without the weight; a
triton_op that writes its input dy under mutates_args={}, custom_op instead of triton_op; the result stored over a;
Liger's backward storing the grads over a and b, grads stored as float16; Liger's gradient stored over the logits,
the target matched against the block's own columns) must fail, and the first diagnosis must name the real cause
(and the learner's line where the lab gives one). Tests marked xfail state the RIGHT verdict where the lab is wrong
or misleading today; strict, so they fail loudly once fixed.
"""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round7_11_14"

OS, AT = "11/online-softmax", "11/attention"
RB, RO = "12/rms-norm-backward", "12/rms-norm-op"
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


def first_message(result) -> str:
    if result.get("error"):
        return result["error"]["message"]
    return first_diag(result)["message"]


def line_of(name, snippet) -> int:
    lines = (PROBES / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if snippet in line)


def outputs_named(result) -> set:
    """The gradient-mode outputs (out, grad_x, grad_w, grad_a, grad_b) that the failing cases' diagnoses name."""
    return {d.get("output") for c in failed(result) for d in c["diagnoses"]}


def assert_fails(result):
    assert not result["passed"], "a wrong file passed"


# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    (AT, "l11_attention_ok_tutorial_stages_l_init_one.py"),
    (AT, "l11_attention_ok_tensor_descriptors_per_head.py"),
    (OS, "l11_online_softmax_ok_max_pass_then_sum_pass.py"),
    (OS, "l11_online_softmax_ok_tl_reduce_pair_combine.py"),
    (RB, "l12_rms_backward_ok_unsloth_dw_in_torch.py"),
    (RB, "l12_rms_backward_ok_setup_context_style.py"),
    (RB, "l12_rms_backward_ok_dx_written_over_dy.py"),
    (SW, "l14_swiglu_ok_liger_rows_silu_cast_then_mul.py"),
    (SB, "l14_swiglu_backward_ok_setup_context_once_differentiable.py"),
    (SB, "l14_swiglu_backward_ok_fp32_grads_returned_uncast.py"),
    (CE, "l14_cross_entropy_ok_liger_scalar_online_kwargs.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


# --- lesson 11: attention ---------------------------------------------------------------------------------------------

FLAT = "l11_attention_wrong_flat_descriptor_spills_into_next_head.py"


def test_attention_flat_descriptor_fails_where_a_head_spills_into_the_next(worker):
    """Only cases with a next head (B * H > 1) whose S is not a multiple of BLOCK_M (32 here) fail."""
    result = verify(worker, AT, FLAT)
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(
        c["params"]["B"] * c["params"]["H"] > 1 and c["params"]["S"] % c["meta"]["BLOCK_M"] for c in bad
    ), [c["name"] for c in bad]


def test_attention_flat_descriptor_names_the_store_two_programs_make(worker):
    """Was 'loop-steps'; the write-write overlap memcheck records (descriptor stores included) is named."""
    result = verify(worker, AT, FLAT)
    diag = first_diag(result)
    assert diag.get("cause") == "stored-over" and diag.get("overlap_count"), diag
    message = diag["message"]
    assert "more than one program" in message and "next head" in message, message


OLD_MAX = "l11_attention_wrong_p_against_old_max.py"


def test_attention_p_against_old_max_is_nan_in_every_case(worker):
    result = verify(worker, AT, OLD_MAX)
    assert_fails(result)
    # every fixed case (8 since S = 17 joined in the twenty-fifth session), both variants, both dtypes
    assert len(public_failed(result)) == 32
    assert first_diag(result)["kind"] == "nan"


def test_attention_p_against_old_max_names_the_p_line_not_the_init(worker):
    """Was 'line 26 starts a running state at -inf … start at -1e30' (which would not help); cause old-max now."""
    result = verify(worker, AT, OLD_MAX)
    diag = first_diag(result)
    assert diag.get("line") == line_of(OLD_MAX, "        p = tl.exp2(s - m_i[:, None])"), diag
    assert "-1e30" not in diag["message"] and "max" in diag["message"], diag["message"]


SCALE_D = "l11_attention_wrong_default_scale_one_over_d.py"


def test_attention_default_scale_one_over_d_fails_only_the_default_scale(worker):
    result = verify(worker, AT, SCALE_D)
    bad = public_failed(result)
    assert bad and not any(c["kwargs"].get("sm_scale") for c in bad)  # the explicit sm_scale=0.5 cases pass
    assert first_diag(result).get("cause") == "scale"


def test_attention_default_scale_one_over_d_names_the_default(worker):
    """Was 'the scale is applied twice'; the cases with an explicit sm_scale pass, so the default is named."""
    message = first_message(verify(worker, AT, SCALE_D))
    assert first_diag(verify(worker, AT, SCALE_D)).get("form") == "default"
    assert "twice" not in message and any(w in message for w in ("default", "sqrt", "√", "D ** -0.5")), (
        message
    )


def test_attention_block_n_below_16_does_not_pass_on_the_interpreter(worker):
    """Was a false pass: at S = 1 the file runs tl.dot(p, v) with K = BLOCK_N = 1, which a GPU refuses to compile
    (K >= 16 for 16-bit operands); the interpreter took it. The lab applies the GPU's rule on the interpreter now
    and names the dot's line."""
    name = "l11_attention_wrong_block_n_below_16_at_short_seq.py"
    result = verify(worker, AT, name)
    assert_fails(result)
    error = result["error"]
    assert error["kind"] == "compile" and error.get("cause") == "dot-too-small" and error.get("k") == 16, (
        error
    )
    assert "S=1" in error["case"], error
    assert error["line"] == line_of(name, "acc = tl.dot(p.to(v.dtype), v, acc)"), error


# --- lesson 12: RMS norm backward -------------------------------------------------------------------------------------

NO_W = "l12_rms_backward_wrong_dx_without_weight.py"


def test_rms_backward_dx_without_weight_breaks_grad_x_only(worker):
    result = verify(worker, RB, NO_W)
    assert_fails(result)
    assert outputs_named(result) == {"grad_x"}
    diag = first_diag(result)
    assert diag["output"] == "grad_x" and diag.get("cause") == "input-factor", diag


def test_rms_backward_dx_without_weight_names_the_weight(worker):
    """Was 'every element of this gradient is wrong'; grad_x is the reference divided by w, column by column."""
    diag = first_diag(verify(worker, RB, NO_W))
    assert diag.get("cause") == "input-factor" and diag["form"] == "missing" and diag["input"] == "w", diag
    assert "w is not applied" in diag["message"], diag["message"]


# --- lesson 12: RMS norm operators ------------------------------------------------------------------------------------


def test_rms_op_backward_writing_its_input_under_empty_mutates_args_fails(worker):
    """Was a false pass: the op stored dx over dy under mutates_args={}; the lab compares an op's undeclared
    tensor arguments before and after each call now (kind op-mutates)."""
    result = verify(worker, RO, "l12_rms_op_wrong_bwd_op_mutates_dy_undeclared.py")
    assert_fails(result)
    message = first_message(result)
    assert "mutates_args" in message and "dy" in message, message
    diag = first_diag(result)
    assert diag["kind"] == "op-mutates" and diag["arg"] == "dy" and diag["op"].endswith("rms_norm_bwd"), diag


def test_rms_op_custom_op_instead_of_triton_op_is_named(worker):
    """Was a false pass: both operators were torch.library.custom_op with bare launches, a black box to
    torch.compile; the runner reports how each operator was registered (ops_registered), kind op-not-triton."""
    result = verify(worker, RO, "l12_rms_op_wrong_custom_op_instead_of_triton_op.py")
    assert_fails(result)
    assert "triton_op" in first_message(result) and "custom_op" in first_message(result)
    diag = first_diag(result)
    assert diag["kind"] == "op-not-triton" and diag["how"] == "custom_op", diag


# --- lesson 14: SwiGLU ------------------------------------------------------------------------------------------------


def test_swiglu_result_stored_over_a_is_an_input_modified_verdict(worker):
    result = verify(worker, SW, "l14_swiglu_wrong_result_stored_over_a.py")
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] in ("input-modified", "returned-input"), diag
    assert {d["kind"] for d in failed(result)[0]["diagnoses"]} >= {"input-modified", "returned-input"}
    assert all(c.get("kind") != "reject" for c in failed(result))


# --- lesson 14: SwiGLU backward ---------------------------------------------------------------------------------------

LIGER_SB = "l14_swiglu_backward_wrong_liger_grads_over_inputs.py"


def test_swiglu_backward_grads_over_inputs_is_input_modified_for_a_and_b(worker):
    result = verify(worker, SB, LIGER_SB)
    assert_fails(result)
    case = failed(result)[0]
    assert [(d["kind"], d.get("arg")) for d in case["diagnoses"][:2]] == [
        ("input-modified", "a"),
        ("input-modified", "b"),
    ], case["diagnoses"]


def test_swiglu_backward_grads_over_inputs_names_the_backward(worker):
    """Was 'your kernel modified its input a … store into the output instead'; a now holds grad_a, said so."""
    message = first_message(verify(worker, SB, LIGER_SB))
    assert "backward" in message or "gradient" in message, message
    assert first_diag(verify(worker, SB, LIGER_SB)).get("holds") == "grad_a"


def test_swiglu_backward_grads_stored_as_fp16_fail_float32_only_as_a_16_bit_rounding(worker):
    result = verify(worker, SB, "l14_swiglu_backward_wrong_grads_stored_as_fp16.py")
    assert_fails(result)
    assert all(c["dtype"] == "float32" for c in failed(result) if c.get("kind") != "reject")
    assert outputs_named(result) <= {"grad_a", "grad_b"}
    diag = first_diag(result)
    assert diag.get("cause") == "dtype-only" and "16-bit" in diag["message"], diag


# --- lesson 14: cross-entropy -----------------------------------------------------------------------------------------

LIGER_CE = "l14_cross_entropy_wrong_liger_grad_into_logits.py"


def test_cross_entropy_gradient_over_logits_is_input_modified(worker):
    result = verify(worker, CE, LIGER_CE)
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "input-modified" and diag["arg"] == "logits", diag


def test_cross_entropy_gradient_over_far_rows_logits_does_not_crash_the_runner(worker):
    """Was a runner crash: the changed far-rows view went back whole (torch.save writes a view's whole storage,
    past 8 GiB) and hit the runner's file-size limit. A compact copy goes back now."""
    result = verify(worker, CE, LIGER_CE)
    assert result.get("error") is None, result["error"]["message"][:200]
    far = [c for c in result["cases"] if "@far_rows" in (c.get("kwargs") or {})]
    assert far and far[0]["diagnoses"][0]["kind"] == "input-modified", far


BLOCK_COLS = "l14_cross_entropy_wrong_target_matched_in_block_columns.py"


def test_cross_entropy_target_in_block_columns_fails_only_streamed_rows(worker):
    result = verify(worker, CE, BLOCK_COLS)
    bad = public_failed(result)
    assert bad and all(c["params"]["V"] > c["meta"]["BLOCK_V"] for c in bad), [c["name"] for c in bad]
    assert not any(c["params"]["V"] == 1 for c in failed(result))


def test_cross_entropy_target_in_block_columns_points_at_the_block_steps(worker):
    diag = first_diag(verify(worker, CE, BLOCK_COLS))
    assert diag.get("cause") == "loop-steps" and "BLOCK_V" in diag["message"], diag
