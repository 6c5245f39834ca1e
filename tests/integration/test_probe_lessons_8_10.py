"""Held-out-style learner files for lessons 8-10: the verdict a demanding teacher would give.

Correct-but-different files (online softmax, exp2, several rows per program, tensor descriptors, a 2D grid, a
contiguous-only wrapper, an own autotune search space, ...) must pass; realistic wrong files must fail, and where the
lab's first diagnosis names the cause, it must be the real one. Tests marked xfail describe the RIGHT verdict or
diagnosis where the lab is wrong today (strict: they start failing loudly once the lab is fixed).
"""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_lessons_8_10"


def verify(worker, exercise, name):
    return worker.request("verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600)


def kinds(case) -> set:
    return {d["kind"] for d in case["diagnoses"]}


def failed(result) -> list:
    return [c for c in result["cases"] if not c["passed"]]


def public_failed(result) -> list:
    """Failing fixed cases (the random case of each verify has a secret size: left out of the exact checks)."""
    return [c for c in failed(result) if "random" not in c["name"] and c.get("kind") != "reject"]


def line_of(name, snippet) -> int:
    lines = (PROBES / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if snippet in line)


def first_message(result) -> str:
    if result.get("error"):
        return result["error"]["message"]
    return failed(result)[0]["diagnoses"][0]["message"]


# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    ("8/softmax", "l08_softmax_ok_online.py"),
    ("8/softmax", "l08_softmax_ok_exp2.py"),
    ("8/softmax", "l08_softmax_ok_rows_tile.py"),
    ("8/softmax-rows", "l08_softmax_rows_ok_loop.py"),
    ("8/row-sum", "l08_row_sum_ok_scalar_acc.py"),
    ("9/matmul", "l09_matmul_ok_rowmajor_absk.py"),
    ("9/matmul", "l09_matmul_ok_2d_grid.py"),
    ("9/matmul", "l09_matmul_ok_tensor_desc.py"),
    ("9/matmul", "l09_matmul_ok_contiguous_wrapper.py"),
    ("9/matmul-bias", "l09_matmul_bias_ok_2d_bias.py"),
    ("9/matmul-fast", "l09_matmul_fast_ok_never_even.py"),
    ("10/debug-rms-norm", "l10_rms_ok_sqrt_div.py"),
    ("10/debug-rms-norm", "l10_rms_ok_rows_2d.py"),
    ("10/autotune-matmul", "l10_autotune_ok_rowmajor.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


# --- realistic wrong code: FAIL, with the real cause ----------------------------------------------------------------


def test_softmax_without_max_overflows(worker):
    result = verify(worker, "8/softmax", "l08_softmax_wrong_no_max.py")
    assert not result["passed"]
    nan = next(d for d in failed(result)[0]["diagnoses"] if d["kind"] == "nan")
    assert nan.get("cause") == "softmax" and "row max" in nan["message"]


def test_softmax_padding_zero_fails_on_short_ragged_rows(worker):
    result = verify(worker, "8/softmax", "l08_softmax_wrong_pad_zero.py")
    assert not result["passed"]
    bad = public_failed(result)
    # ragged rows whose values can be all < 0, and (since the low_row contract) row 0 moved to [-121, -119)
    assert bad and all(
        c["params"]["N"] in (3, 13) or all(str(d.get("rows")) in ("[0]", "[[0, 0]]") for d in c["diagnoses"])
        for c in bad
    ), [(c["name"], [d.get("rows") for d in c["diagnoses"]]) for c in bad]
    assert any(c["params"]["N"] in (3, 13) for c in bad)


def test_online_softmax_without_rescale_fails_on_multi_block_rows(worker):
    result = verify(worker, "8/softmax", "l08_softmax_wrong_online_no_rescale.py")
    assert not result["passed"]
    bad = public_failed(result)
    assert bad and all(c["params"]["N"] > 32 for c in bad)
    assert all(kinds(c) == {"mismatch"} for c in bad)


def test_softmax_unshifted_denominator_fails(worker):
    result = verify(worker, "8/softmax", "l08_softmax_wrong_unshifted_sum.py")
    assert not result["passed"]


def test_softmax_rows_without_row_mask_is_out_of_bounds_on_the_load(worker):
    name = "l08_softmax_rows_wrong_no_row_mask.py"
    result = verify(worker, "8/softmax-rows", name)
    assert not result["passed"]
    assert result["error"]["kind"] == "oob"
    assert result["error"]["line"] == line_of(name, "x = tl.load(x_ptrs")


def test_row_sum_without_loop_fails_only_past_one_chunk(worker):
    result = verify(worker, "8/row-sum", "l08_row_sum_wrong_no_loop.py")
    assert not result["passed"]
    assert {c["params"]["N"] for c in public_failed(result)} == {5000}


def test_row_sum_without_loop_is_not_blamed_on_the_operation(worker):
    result = verify(worker, "8/row-sum", "l08_row_sum_wrong_no_loop.py")
    assert "check the operation" not in first_message(result)
    from tritonlab.present.verify import summary

    said = summary(result, "en")
    assert "while every case up to N = " in said and "wrong at N = 5" in said, said
    assert "までのケースはすべて合格" in summary(result, "ja")


def test_row_sum_low_precision_accumulator_fails_on_long_fp16_rows(worker):
    result = verify(worker, "8/row-sum", "l08_row_sum_wrong_lowp_acc.py")
    assert not result["passed"]
    bad = public_failed(result)
    assert bad and all(c["params"]["N"] == 5000 and c["dtype"] != "float32" for c in bad)


def test_row_sum_low_precision_accumulator_is_not_a_tail_mask_bug(worker):
    result = verify(worker, "8/row-sum", "l08_row_sum_wrong_lowp_acc.py")
    diag = public_failed(result)[0]["diagnoses"][0]
    assert diag.get("cause") != "tail-block" and "other=" not in diag["message"]


def test_matmul_unmasked_k_tail_names_the_load_and_offs_k(worker):
    name = "l09_matmul_wrong_k_tail.py"
    result = verify(worker, "9/matmul", name)
    assert not result["passed"]
    assert result["error"]["kind"] == "oob"
    assert result["error"]["line"] == line_of(name, "a = tl.load(a_ptrs")
    assert "offs_k" in result["error"]["message"]
    # right strides, no constexpr branch: neither the swapped-strides nor the promise sentence
    assert "strides passed" not in result["error"]["message"]
    assert "runs only because" not in result["error"]["message"]


def test_matmul_swapped_b_strides_fails(worker):
    result = verify(worker, "9/matmul", "l09_matmul_wrong_swapped_b_strides.py")
    assert not result["passed"]


def test_matmul_swapped_b_strides_blames_the_strides(worker):
    name = "l09_matmul_wrong_swapped_b_strides.py"
    result = verify(worker, "9/matmul", name)
    message = result["error"]["message"]
    assert "strides passed for b_ptr are in the wrong order" in message, message
    assert "stride_bk=1" in message and "lets these lanes through" not in message
    assert f"the launch at line {line_of(name, 'matmul_kernel[grid](')}" in message
    from tritonlab.present.verify import summary

    assert "ストライドの順序が違います" in summary(result, "ja")


def test_matmul_fp16_accumulator_fails(worker):
    result = verify(worker, "9/matmul", "l09_matmul_wrong_fp16_acc.py")
    assert not result["passed"]


def test_matmul_floor_division_grid_is_unwritten_tiles(worker):
    result = verify(worker, "9/matmul", "l09_matmul_wrong_floor_grid.py")
    assert not result["passed"]
    first = public_failed(result)[0]
    assert "unwritten" in kinds(first) and "cdiv" in first["diagnoses"][0]["message"]


def test_matmul_pointers_not_advanced_fail_only_with_several_k_steps(worker):
    result = verify(worker, "9/matmul", "l09_matmul_wrong_no_advance.py")
    assert not result["passed"]
    assert all(c["params"]["K"] > 16 for c in public_failed(result))
    assert all(c["params"]["K"] > 32 for c in public_failed(result) if "BLOCK_K" not in c["name"])


def test_matmul_bias_on_the_wrong_axis_fails(worker):
    result = verify(worker, "9/matmul-bias", "l09_matmul_bias_wrong_axis.py")
    assert not result["passed"]
    assert "mismatch" in kinds(public_failed(result)[0])


def test_matmul_bias_activation_before_bias_fails_only_with_an_activation(worker):
    result = verify(worker, "9/matmul-bias", "l09_matmul_bias_wrong_act_before_bias.py")
    assert not result["passed"]
    assert all("activation" in c["name"] for c in public_failed(result))


def test_matmul_bias_wrapper_assuming_row_major_b_fails(worker):
    result = verify(worker, "9/matmul-bias", "l09_matmul_bias_wrong_assume_contig.py")
    assert not result["passed"]


def test_matmul_fast_inverted_even_k_is_out_of_bounds_on_the_unmasked_load(worker):
    name = "l09_matmul_fast_wrong_even_k_inverted.py"
    result = verify(worker, "9/matmul-fast", name)
    assert not result["passed"]
    assert result["error"]["kind"] == "oob"
    assert result["error"]["line"] == line_of(name, "a = tl.load(a_ptrs, mask=m_ok, other=0.0)")


def test_matmul_fast_false_even_k_names_the_promise(worker):
    name = "l09_matmul_fast_wrong_even_k_inverted.py"
    result = verify(worker, "9/matmul-fast", name)
    message = result["error"]["message"]
    assert "runs only because the launch passed EVEN_K=True" in message, message
    promise_line = line_of(name, 'EVEN_K=K % cfg["BLOCK_K"] != 0,')
    assert f"line {promise_line}: EVEN_K=K % cfg" in message
    from tritonlab.present.verify import summary

    assert "EVEN_K=True が渡された" in summary(result, "ja")


def test_matmul_fast_even_k_hard_coded_to_the_interpreter_tile_fails(worker):
    # the lab's config variant (BLOCK_K = 64) at K = 96: whole 32-steps, not 64-steps
    name = "l09_matmul_fast_wrong_even_k_hardcoded32.py"
    result = verify(worker, "9/matmul-fast", name)
    assert not result["passed"]
    assert result["error"]["kind"] == "oob" and "BLOCK_K=64" in result["error"]["case"]
    assert (
        f"EVEN_K=True (line {line_of(name, 'EVEN_K=K % 32 == 0,')}: EVEN_K=K % 32 == 0)"
        in result["error"]["message"]
    )


def test_rms_norm_without_eps_fails_on_the_zero_row(worker):
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_no_eps.py")
    assert not result["passed"]
    assert "nan" in kinds(public_failed(result)[0])


def test_rms_norm_without_eps_names_eps(worker):
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_no_eps.py")
    assert "eps" in first_message(result)


def test_rms_norm_mean_over_the_padded_block_fails(worker):
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_mean_blockn.py")
    assert not result["passed"]


def test_rms_norm_fp16_statistics_fail_only_in_float16(worker):
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_fp16_stats.py")
    assert not result["passed"]
    assert all(c["dtype"] == "float16" for c in public_failed(result))


def test_rms_norm_row_times_n_names_the_strided_view(worker):
    name = "l10_rms_wrong_row_times_n.py"
    result = verify(worker, "10/debug-rms-norm", name)
    assert not result["passed"]
    assert result["error"]["kind"] == "oob"
    assert result["error"]["line"] == line_of(name, "x = tl.load(x_ptr + row * N")
    assert "stride" in result["error"]["message"]


def test_rms_norm_reduced_across_rows_fails(worker):
    result = verify(worker, "10/debug-rms-norm", "l10_rms_wrong_axis0_2d.py")
    assert not result["passed"]


def test_autotune_key_without_sizes_fails_the_contract(worker):
    result = verify(worker, "10/autotune-matmul", "l10_autotune_wrong_key_no_size.py")
    assert not result["passed"]
    assert "autotune-key" in kinds(failed(result)[0])


def test_autotune_single_config_fails_the_contract(worker):
    result = verify(worker, "10/autotune-matmul", "l10_autotune_wrong_one_config.py")
    assert not result["passed"]
    assert "autotune-configs" in kinds(failed(result)[0])


def test_autotune_single_config_message_is_grammatical(worker):
    result = verify(worker, "10/autotune-matmul", "l10_autotune_wrong_one_config.py")
    assert "1 configs" not in first_message(result)
    from tritonlab.present.verify import summary

    assert "returns 1 config for a GPU" in summary(result, "en")


def test_autotune_grid_over_rows_only_fails_unwritten(worker):
    result = verify(worker, "10/autotune-matmul", "l10_autotune_wrong_grid_m_only.py")
    assert not result["passed"]
    assert "unwritten" in kinds(public_failed(result)[0])


def test_autotune_grid_over_rows_only_is_not_called_floor_division(worker):
    result = verify(worker, "10/autotune-matmul", "l10_autotune_wrong_grid_m_only.py")
    assert "floor division" not in first_message(result)


def test_autotune_grid_hard_coded_to_32_fails(worker):
    # the "@autotune" variants pin the file's smallest GPU tile (16 x 32) on the interpreter
    result = verify(worker, "10/autotune-matmul", "l10_autotune_wrong_grid_hardcoded.py")
    assert not result["passed"]
    bad = public_failed(result)
    assert bad and all("@autotune=smallest" in c["name"] for c in bad)
    diag = bad[0]["diagnoses"][0]
    assert diag["cause"] == "grid-fewer-programs" and diag["axis"] is None and diag["from_meta"]
    assert "meta gave 16 x 32" in diag["message"]
