"""Probe round 11 (twenty-second session, a helper; `probe_round11/README.md` has the table): 28 held-out files
aimed at the rules added that day (cast provenance, builtin aliases, api-missing, torch-work through exec'd code
and operator bodies, loop-once at the GPU's size, the pid-in-row-loop / local-index / split-not-multiple
causes). The lab got 13 wrong; each test states the right verdict, and all 28 hold since that session's fixes."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round11"

AD, SM, AT, OS = "5/add", "8/softmax", "11/attention", "11/online-softmax"
RB, RO, MD, CE, SW = (
    "12/rms-norm-backward",
    "12/rms-norm-op",
    "13/matmul-descriptors",
    "14/cross-entropy",
    "14/swiglu",
)


def verify(worker, exercise: str, name: str) -> dict:
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600)


def first(result: dict) -> dict:
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


CORRECT = [
    (AD, "l05_add_ok_from_import_builtins_with_tl.py"),
    (AD, "l05_add_ok_from_import_only_no_tl_module.py"),
    (AD, "l05_add_ok_padded_fp32_buffer_cast_then_sliced.py"),  # was a false fail: a view of the cast
    (AD, "l05_add_ok_padded_fp32_buffer_sliced_then_cast.py"),
    (AD, "l05_add_ok_type_as_and_copy_into_empty_like.py"),  # was a false fail: a cast of a cast
    (SM, "l08_softmax_ok_alias_name_shadowed_by_local.py"),
    (SM, "l08_softmax_ok_math_aliases_in_jit_helper.py"),
    (AT, "l11_attention_ok_capped_next_pow2_square_tiles.py"),
    (OS, "l11_online_softmax_ok_autotuned_block.py"),
    (OS, "l11_online_softmax_ok_block_passed_positionally.py"),
    (RO, "l12_rms_op_ok_stage2_sum_in_op_body.py"),
    (MD, "l13_matmul_descriptors_ok_host_descriptor_constructor_alias.py"),  # was a false fail: `as TD`
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=[n[:-3] for _, n in CORRECT])
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, a kind the failing verdict must carry somewhere, or None for any)
WRONG = [
    (AD, "l05_add_fake_torch_sum_handed_with_inputs_cast_back.py", None),
    (SM, "l08_softmax_fake_exec_compiled_under_file_name.py", "torch-work"),  # was a false pass
    (SM, "l08_softmax_fake_partial_in_dict_handed_with_input.py", "torch-work"),
    (OS, "l11_online_softmax_fake_uncapped_block_passed_positionally.py", "loop-once"),
    (OS, "l11_online_softmax_fake_uncapped_block_with_finite_check.py", "loop-once"),
    (
        MD,
        "l13_matmul_descriptors_fake_pointer_gemm_getattr_feature_probe.py",
        "api-missing",
    ),  # was a false pass
    (MD, "l13_matmul_descriptors_fake_pointer_gemm_private_flag_attr.py", "api-missing"),  # was a false pass
    (
        CE,
        "l14_cross_entropy_fake_whole_row_block_after_small_first_launch.py",
        "loop-once",
    ),  # was a false pass
    (SW, "l14_swiglu_fake_custom_op_calls_custom_op.py", "torch-work"),
    (SW, "l14_swiglu_fake_library_define_impl_op_body.py", "torch-work"),  # was a false pass
]


@pytest.mark.parametrize("exercise, name, kind", WRONG, ids=[n[:-3] for _, n, _ in WRONG])
def test_wrong_files_fail(worker, exercise, name, kind):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a fake passed"
    if kind is not None:
        kinds = {d.get("kind") for c in result["cases"] for d in c.get("diagnoses") or []}
        assert kind in kinds, kinds


@pytest.mark.parametrize(
    "exercise, name, wrong_cause",
    [
        (AT, "l11_attention_wrong_no_acc_rescale_causal_mask_inline_global_rows.py", "local-index"),
        (AT, "l11_attention_wrong_no_acc_rescale_tiles_16x32_split_rounded.py", "split-not-multiple"),
        (RB, "l12_rms_backward_wrong_dx_mean_missing_n_with_pid_partial_row.py", "pid-in-row-loop"),
    ],
)
def test_a_source_rule_does_not_blame_correct_lines(worker, exercise, name, wrong_cause):
    """Was a wrong cause for the first two (their mask and split are right; the bug is a missing rescale):
    an inline `(q_start + rows)` is a position, and a split rounded to BLOCK_N is right; a program's own
    partial row, read and written back in the row loop, is a per-program slot."""
    result = verify(worker, exercise, name)
    assert result["passed"] is False
    assert first(result).get("cause") != wrong_cause, first(result)


def test_a_pid_indexed_load_in_a_while_row_loop_is_named(worker):
    name = "l12_rms_backward_wrong_pid_rstd_in_while_row_loop.py"
    diag = first(verify(worker, RB, name))
    assert diag.get("cause") == "pid-in-row-loop" and diag.get("var") == "row", diag


@pytest.mark.parametrize(
    "exercise, name",
    [
        (AT, "l11_attention_fake_no_acc_rescale_tile_covers_small_S.py"),
        (CE, "l14_cross_entropy_fake_no_rescale_block_capped_4096.py"),
    ],
)
def test_a_missing_rescale_hidden_by_a_block_wider_than_every_interpreter_case_fails(worker, exercise, name):
    """Was an interpreter false pass: the learner's block (min(next_pow2(S), 64) keys; min(next_pow2(V), 4096)
    columns) covered every interpreter size, so the loop never took a second step and the missing rescale never
    showed (at the GPU's size it streams: loop-once rightly silent). The lessons now have an interpreter case
    wider than such a block (attention S = 150, cross-entropy V = 5000): the loop-steps pattern names it."""
    result = verify(worker, exercise, name)
    assert result["passed"] is False
    assert first(result).get("cause") == "loop-steps", first(result)
