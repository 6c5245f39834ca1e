"""Probe round 5, lessons 13-14: held-out learner files for the persistent matmul, the tensor-descriptor matmul
(it runs on this Triton's interpreter: tensor descriptors and warp specialization are present, so it is probed,
not skipped) and the three capstones (SwiGLU, SwiGLU backward, cross-entropy), written from the lesson text and
the starters, not from kernels/.

Correct-but-different files (row-major tile order, a while loop over tiles, one program per tile, K offsets
instead of pointer increments, no flatten=, an implicit cast on a descriptor store, exp2 sigmoid, a 2D grid,
a grid-stride loop, saving sigmoid(a) for the backward, a two-pass or block-wise online logsumexp, one block
per row) must pass. Realistic wrong files (a tile loop without a step, chunked or mis-started tile loops, the
grouped order without its min, an accumulator above the tile loop, tile numbers as descriptor coordinates, B's
descriptor with A's strides, a forgotten allocator, fp16 math, swapped or missing gradients, a backward in
eager torch, no max subtraction, a -inf sentinel, a 16-bit loss, ...) must fail, and the first diagnosis must
name the real cause (and the learner's line where the lab gives one). Tests marked xfail state the RIGHT
verdict where the lab is wrong or misleading today; strict, so they fail loudly once fixed.
The report with the lab's verdict for every file (as it was before the fixes): docs/probes/round5-lessons-13-14.md.
"""

from pathlib import Path

import pytest

from tritonlab.present.verify import summary

PROBES = Path(__file__).parent / "probe_round5_13_14"


_CACHE: dict = {}


def verify(worker, exercise, name):
    key = (exercise, name)
    if key not in _CACHE:  # several tests read one verdict: verify each file once per module
        _CACHE[key] = worker.request(
            "verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600
        )
    if _CACHE[key].get(
        "skipped"
    ):  # an older Triton without tensor descriptors: the exercise is skipped there
        pytest.skip(f"{exercise} is skipped on this Triton: {_CACHE[key]['skipped']}")
    return _CACHE[key]


def kinds(case) -> set:
    return {d["kind"] for d in case["diagnoses"]}


def failed(result) -> list:
    return [c for c in result["cases"] if not c["passed"]]


def public_failed(result) -> list:
    """Failing listed cases (the hidden / random cases have secret sizes: left out of the exact checks)."""
    return [c for c in failed(result) if "random" not in c["name"] and c.get("kind") != "reject"]


def public_passed(result) -> list:
    return [
        c for c in result["cases"] if c["passed"] and "random" not in c["name"] and c.get("kind") != "reject"
    ]


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


PM = "13/persistent-matmul"
MD = "13/matmul-descriptors"
SW = "14/swiglu"
SB = "14/swiglu-backward"
CE = "14/cross-entropy"

# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    (PM, "l13_persistent_matmul_ok_tl_range_num_programs.py"),
    (PM, "l13_persistent_matmul_ok_row_major_order.py"),
    (PM, "l13_persistent_matmul_ok_while_loop.py"),
    (PM, "l13_persistent_matmul_ok_one_program_per_tile.py"),
    (PM, "l13_persistent_matmul_ok_k_offsets_small_tiles.py"),
    (MD, "l13_matmul_descriptors_ok_row_major_no_flatten.py"),
    (MD, "l13_matmul_descriptors_ok_small_tiles_16.py"),
    (MD, "l13_matmul_descriptors_ok_store_implicit_cast.py"),
    (SW, "l14_swiglu_ok_exp2_sigmoid.py"),
    (SW, "l14_swiglu_ok_2d_grid_strided.py"),
    (SW, "l14_swiglu_ok_grid_stride_few_programs.py"),
    (SB, "l14_swiglu_backward_ok_recompute_exp2.py"),
    (SB, "l14_swiglu_backward_ok_save_sigmoid.py"),
    (CE, "l14_cross_entropy_ok_online_per_lane.py"),
    (CE, "l14_cross_entropy_ok_two_pass.py"),
    (CE, "l14_cross_entropy_ok_block_online_scalar.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert not result.get("skipped"), result.get("skipped")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


def test_a_whole_row_block_is_right_on_every_case_and_fails_only_at_the_gpus_size(worker):
    """Round 5 judged this file (one block as wide as the row, no loop) correct but different. Since the
    twenty-second session the loop contract is also judged at the largest GPU size: at V = 128256 the block
    is 131072 columns in one program, and the capstone asks for an online logsumexp over a 128k vocabulary.
    Every value is still right: only the gpu-scale case fails, with loop-once (a judgment change, said here)."""
    result = verify(worker, CE, "l14_cross_entropy_ok_whole_row_block.py")
    failing = [c for c in result["cases"] if not c["passed"]]
    assert [c.get("kind") for c in failing] == ["gpu-scale"], [c["name"] for c in failing]
    diag = failing[0]["diagnoses"][0]
    assert (diag["kind"], diag["value"], diag["block_value"]) == ("loop-once", 128256, 131072), diag


def test_descriptor_exercise_runs_on_this_interpreter(worker):
    """verify.requires names tensor descriptors and warp specialization: this Triton has both, so the cases run."""
    result = verify(worker, MD, "l13_matmul_descriptors_ok_row_major_no_flatten.py")
    assert not result.get("skipped") and len(result["cases"]) > 10
    assert any("warp_specialize=True" in c["name"] for c in result["cases"])


def test_descriptors_host_side_descriptors_pass(worker):
    result = verify(worker, MD, "l13_matmul_descriptors_ok_host_descriptors.py")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


# --- lesson 13: persistent matmul ------------------------------------------------------------------------------------


def test_persistent_k_tail_unmasked_stops_at_the_a_load(worker):
    name = "l13_persistent_matmul_wrong_k_tail_unmasked.py"
    error = stops_at(verify(worker, PM, name), "oob", name, "a = tl.load(")
    assert "offs_k" in error["message"], error["message"]


def test_persistent_acc_above_tile_loop_fails_only_where_a_program_loops(worker):
    # 63 x 129 is the only listed shape with more tiles (10) than programs (3)
    result = verify(worker, PM, "l13_persistent_matmul_wrong_acc_before_tile_loop.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["M"] == 63 for c in bad)
    assert first_diag(result)["kind"] == "mismatch"


def test_persistent_acc_above_tile_loop_names_the_accumulator(worker):
    """It was a bare mismatch (a strict xfail until the tenth session): each program's first tile is right and
    later tiles are their product plus the previous tile's — cause `carried-acc`."""
    message = first_message(verify(worker, PM, "l13_persistent_matmul_wrong_acc_before_tile_loop.py"))
    assert "accumulat" in message and "tile" in message, message


def test_persistent_chunked_floor_fails_only_with_a_remainder(worker):
    # 10 tiles // 3 programs = 3 each: tile 9 is never computed; 1 and 2 tiles divide evenly
    result = verify(worker, PM, "l13_persistent_matmul_wrong_chunked_floor.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["M"] == 63 for c in bad)
    assert first_diag(result)["kind"] == "unwritten"


def test_persistent_chunked_floor_blames_the_tile_loop_not_the_grid(worker):
    message = first_message(verify(worker, PM, "l13_persistent_matmul_wrong_chunked_floor.py"))
    assert "triton.cdiv(size, BLOCK) programs" not in message and "loop" in message, message


def test_persistent_group_without_min_fails_only_with_grouping(worker):
    result = verify(worker, PM, "l13_persistent_matmul_wrong_group_without_min.py")
    bad = public_failed(result)
    assert bad and all("GROUP_M=1" not in c["name"] for c in bad)
    diag = first_diag(result)
    # a persistent kernel: the tile loop's mapping, not the grid. Its loop takes every tile id, so the cause is
    # tile-id-map (twenty-first session), naming the group's real height min(num_pid_m - first_pid_m, GROUP_M)
    assert diag["kind"] == "unwritten" and diag["cause"] == "tile-id-map" and "pid_m" in diag["message"], diag
    assert "min(num_pid_m - first_pid_m, GROUP_M)" in diag["message"], diag


def test_persistent_loop_started_at_pid_times_programs_fails_unwritten(worker):
    result = verify(worker, PM, "l13_persistent_matmul_wrong_start_times_programs.py")
    assert not result["passed"] and first_diag(result)["kind"] == "unwritten"


@pytest.mark.parametrize(
    "name",
    [
        "l13_persistent_matmul_wrong_start_times_programs.py",
        "l13_persistent_matmul_wrong_group_without_min.py",
    ],
)
def test_persistent_unvisited_tiles_are_not_called_overlapping(worker, name):
    message = first_message(verify(worker, PM, name))
    assert "wrote the same tile" not in message, message


def test_persistent_loop_started_at_pid_times_programs_names_the_loop(worker):
    message = first_message(verify(worker, PM, "l13_persistent_matmul_wrong_start_times_programs.py"))
    assert "loop" in message, message


def test_persistent_loop_without_step_fails(worker):
    result = verify(worker, PM, "l13_persistent_matmul_wrong_loop_step_one.py")
    assert not result["passed"]
    assert "tile" in first_message(result)


# --- lesson 13: tensor descriptors -----------------------------------------------------------------------------------


def test_descriptors_tile_numbers_as_coordinates_stop_at_the_load(worker):
    name = "l13_matmul_descriptors_wrong_load_tile_numbers.py"
    stops_at(verify(worker, MD, name), "runtime", name, "b = b_desc.load(")


def test_descriptors_tile_numbers_as_coordinates_names_element_offsets(worker):
    """Tile numbers as descriptor coordinates stopped with the interpreter's raw 'AssertionError: block offset
    start must be 16-byte aligned' (a strict xfail until the tenth session): now cause `descriptor-offset` on
    the learner's load, saying the coordinates are the block corner's element offsets, not tile numbers."""
    name = "l13_matmul_descriptors_wrong_load_tile_numbers.py"
    error = stops_at(verify(worker, MD, name), "runtime", name, "b = b_desc.load([ki, pid_n])")
    assert error["cause"] == "descriptor-offset" and "b_desc.load([ki, pid_n])" in error["call"], error
    assert "element offsets" in error["message"] and "not tile numbers" in error["message"], error["message"]


def test_descriptors_b_with_a_strides_stops_at_the_b_load(worker):
    name = "l13_matmul_descriptors_wrong_b_strides_from_a.py"
    error = stops_at(verify(worker, MD, name), "oob", name, "b = b_desc.load(")
    assert "b_ptr" in error["message"]


def test_descriptors_b_with_a_strides_names_the_strides_not_a_mask(worker):
    message = first_message(verify(worker, MD, "l13_matmul_descriptors_wrong_b_strides_from_a.py"))
    assert "mask=" not in message and "stride" in message, message


def test_descriptors_dropped_tma_check_fails_only_the_reject(worker):
    result = verify(worker, MD, "l13_matmul_descriptors_wrong_dropped_tma_check.py")
    bad = failed(result)
    assert [c["name"] for c in bad] == ["rejects rows not 16-byte aligned"]
    diag = bad[0]["diagnoses"][0]
    assert diag["kind"] == "validation" and diag["cause"] == "failed-in-kernel", diag


def test_descriptors_acc_above_tile_loop_fails(worker):
    assert not verify(worker, MD, "l13_matmul_descriptors_wrong_acc_before_tile_loop.py")["passed"]


def test_descriptors_swapped_block_shape_fails(worker):
    assert not verify(worker, MD, "l13_matmul_descriptors_wrong_b_block_shape_swapped.py")["passed"]


def test_descriptors_missing_allocator_is_named(worker):
    result = verify(worker, MD, "l13_matmul_descriptors_wrong_no_allocator.py")
    assert not result["passed"] and "set_allocator" in summary(result, "en")


# --- lesson 14: swiglu -----------------------------------------------------------------------------------------------


def test_swiglu_fp16_math_is_a_compile_error_about_fp32(worker):
    result = verify(worker, SW, "l14_swiglu_wrong_fp16_math.py")
    assert not result["passed"] and result["error"]["kind"] == "compile"
    assert "fp32" in result["error"]["message"]


def test_swiglu_fp16_math_names_the_sigmoid_line(worker):
    name = "l14_swiglu_wrong_fp16_math.py"
    stops_at(verify(worker, SW, name), "compile", name, "tl.sigmoid(a)")


def test_swiglu_sigmoid_without_a_fails_every_case(worker):
    result = verify(worker, SW, "l14_swiglu_wrong_sigmoid_not_silu.py")
    assert not public_passed(result) and first_diag(result)["kind"] == "mismatch"


def test_swiglu_grid_from_rows_names_the_grid(worker):
    diag = first_diag(verify(worker, SW, "l14_swiglu_wrong_grid_from_rows.py"))
    assert diag["kind"] == "unwritten" and "triton.cdiv(n_elements" in diag["message"], diag


def test_swiglu_torch_then_copy_is_a_copied_answer(worker):
    result = verify(worker, SW, "l14_swiglu_wrong_torch_then_copy.py")
    assert not result["passed"] and first_diag(result)["kind"] == "copied-answer"


# --- lesson 14: swiglu backward --------------------------------------------------------------------------------------


def test_swiglu_backward_missing_term_fails_a_grad_only(worker):
    result = verify(worker, SB, "l14_swiglu_backward_wrong_dsilu_missing_term.py")
    bad = public_failed(result)
    assert bad and all(d.get("output") == "grad_a" for c in bad for d in c["diagnoses"])


def test_swiglu_backward_missing_term_summary_names_the_gradient(worker):
    # found in this round and fixed meanwhile (2ed7fea): the presented sentence names the gradient
    result = verify(worker, SB, "l14_swiglu_backward_wrong_dsilu_missing_term.py")
    assert "grad_a" in summary(result, "en") and "grad_a" in summary(result, "ja")


def test_swiglu_backward_swapped_grads_fail_both(worker):
    result = verify(worker, SB, "l14_swiglu_backward_wrong_grads_swapped.py")
    first = failed(result)[0]
    assert {d.get("output") for d in first["diagnoses"]} == {"grad_a", "grad_b"}


def test_swiglu_backward_swapped_grads_names_the_swap(worker):
    """Gradients returned as (db, da) were two generic 'every element is wrong' mismatches (a strict xfail until
    the tenth session): grad_a holds torch's grad_b and grad_b torch's grad_a — cause `swapped`."""
    diag = first_diag(verify(worker, SB, "l14_swiglu_backward_wrong_grads_swapped.py"))
    assert diag.get("cause") == "swapped" and diag["swapped_with"] in ("grad_a", "grad_b"), diag
    assert "wrong order" in diag["message"], diag["message"]


def test_swiglu_backward_none_for_b_is_no_gradient(worker):
    diag = first_diag(verify(worker, SB, "l14_swiglu_backward_wrong_no_grad_for_b.py"))
    assert diag["kind"] == "no-gradient" and diag["output"] == "grad_b", diag


def test_swiglu_backward_none_for_b_has_a_sentence(worker):
    # found in this round and fixed meanwhile (2ed7fea): no-gradient had only the generic fallback
    result = verify(worker, SB, "l14_swiglu_backward_wrong_no_grad_for_b.py")
    en, ja = summary(result, "en"), summary(result, "ja")
    assert "the lab reports" not in en and "None" in en, en
    assert "ラボからの報告" not in ja, ja


def test_swiglu_backward_flat_grads_raise_the_shape_error(worker):
    result = verify(worker, SB, "l14_swiglu_backward_wrong_flat_grads.py")
    assert result["error"]["kind"] == "runtime" and "invalid gradient" in result["error"]["message"]


def test_swiglu_backward_in_torch_fails(worker):
    assert not verify(worker, SB, "l14_swiglu_backward_wrong_backward_in_torch.py")["passed"]


# --- lesson 14: cross-entropy ----------------------------------------------------------------------------------------


def test_cross_entropy_without_max_fails(worker):
    assert not verify(worker, CE, "l14_cross_entropy_wrong_no_max_subtraction.py")["passed"]


def test_cross_entropy_single_capped_block_is_a_size_threshold(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_block_capped_no_loop.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["V"] > 512 for c in bad)
    diag = first_diag(result)
    # one capped block, no loop: every case above the cap fails (named as a size limit or as the V/BLOCK_V steps)
    assert diag["cause"] in ("size-threshold", "loop-steps") and "V" in diag["message"], diag


def test_cross_entropy_target_without_row_offset_fails_rows_after_the_first(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_target_without_row.py")
    assert public_failed(result) and all(c["params"]["M"] > 1 for c in public_failed(result))
    assert all(c["params"]["M"] == 1 for c in public_passed(result))


def test_cross_entropy_mean_is_a_shape_error(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_returns_mean.py")
    assert first_diag(result)["kind"] == "wrong-shape"


def test_cross_entropy_neg_inf_sentinel_is_nan(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_neg_inf_sentinel.py")
    assert not result["passed"] and first_diag(result)["kind"] == "nan"


def test_cross_entropy_neg_inf_sentinel_names_inf_minus_inf(worker):
    message = first_message(verify(worker, CE, "l14_cross_entropy_wrong_neg_inf_sentinel.py"))
    assert "-inf" in message, message


def test_cross_entropy_16_bit_loss_is_a_dtype_error(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_loss_in_logits_dtype.py")
    bad = public_failed(result)
    assert bad and all(c["dtype"] != "float32" for c in bad)
    assert first_diag(result)["kind"] == "wrong-dtype"


def test_cross_entropy_16_bit_loss_is_not_told_to_copy_the_input(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_loss_in_logits_dtype.py")
    assert "empty_like" not in summary(result, "en") and "float32" in summary(result, "en")


def test_cross_entropy_without_rescale_fails_past_one_block(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_no_rescale.py")
    assert public_failed(result) and all(c["params"]["V"] > 128 for c in public_failed(result))
    assert first_diag(result)["kind"] == "mismatch"


def test_cross_entropy_without_rescale_names_the_blocks_not_the_rows(worker):
    message = first_message(verify(worker, CE, "l14_cross_entropy_wrong_no_rescale.py"))
    assert "at M =" not in message and ("BLOCK_V" in message or "rescal" in message), message


def test_no_verify_seed_makes_a_fault_over_the_vocabulary_a_threshold_over_the_rows():
    """The test above failed in CI on 1 verify in ~50: the secret seed's sizes put a 4-row case above every
    passing row count. Over 600 seeds of the real case list, a fault at V > BLOCK_V (passes exactly where
    V <= 128) is never called a threshold over M."""
    from tritonlab.content.loader import load_catalog
    from tritonlab.engine.inputs import size_names
    from tritonlab.engine.tasks.verify import _size_threshold, iter_cases

    exercise = load_catalog().exercise("14/cross-entropy")
    named: set = set()
    for seed in range(600):
        cases = []
        for params, _dtype, _seed, _kwargs in iter_cases(exercise, "interpreter", None, seed):
            ok = params["V"] <= 128
            wrong = {"kind": "mismatch", "cause": "all-wrong", "message": "every element is wrong"}
            cases.append({"params": dict(params), "passed": ok, "diagnoses": [] if ok else [wrong]})
        _size_threshold(cases, size_names(exercise), exercise)
        named |= {c["diagnoses"][0].get("param") for c in cases if not c["passed"]}
    assert "V" in named and "M" not in named, named


def test_cross_entropy_torch_then_copy_is_a_copied_answer(worker):
    result = verify(worker, CE, "l14_cross_entropy_wrong_torch_then_copy.py")
    # a half-precision case copies torch's fp32 loss through a cast: torch-work names the torch line there
    # (probe round 13's cast rule); an fp32 case is the copied answer
    assert not result["passed"] and first_diag(result)["kind"] in ("copied-answer", "torch-work")


def test_cross_entropy_pick_in_torch_after_the_kernel_is_not_kernel_output(worker):
    # values right, but the returned loss is torch's `lse - gathered`: against the documented provenance rule
    # (docs/DEVELOPERS.md: the returned tensor must be memory a learner kernel wrote)
    result = verify(worker, CE, "l14_cross_entropy_wrong_pick_in_torch_after_kernel.py")
    assert not result["passed"] and first_diag(result)["kind"] == "not-kernel-output"
