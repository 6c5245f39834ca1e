"""Probe round 15, part c (a helper; `probe_round15_c/README.md` has the table): 15 held-out files over lessons 11,
13 and 14 — 7 correct in shapes the references do not use (a persistent row loop taking two chunks per trip, the
causal test alone as attention's mask, groups of tile columns, a C epilogue through pointers beside A/B
descriptors, da stored over dc's own memory, a running log-sum-exp merged by logaddexp, a two-branch sigmoid) and 8
wrong with one slip each. Each test states the right verdict; where the lab is wrong or vaguer than it could be
today, the test is a strict xfail that says why."""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round15_c"

_CACHE: dict = {}


def verify(worker, exercise: str, name: str) -> dict:
    key = (exercise, name)
    if key not in _CACHE:
        _CACHE[key] = worker.request(
            "verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600
        )
    return _CACHE[key]


def first(result: dict) -> dict:
    """The first failing case's first diagnosis, or the top-level error (an out-of-bounds access stops a verify)."""
    if result.get("error"):
        return result["error"]
    bad = next(c for c in result["cases"] if not c["passed"])
    return bad["diagnoses"][0] if bad.get("diagnoses") else {}


def line_of(name: str, text: str) -> int:
    lines = (PROBES / name).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _gap(reason: str):
    return pytest.mark.xfail(strict=True, reason=reason)


def _ids(rows) -> list[str]:
    return [(r.values if hasattr(r, "values") else r)[1][:-3] for r in rows]


CORRECT = [
    ("11/online-softmax", "l11_online_softmax_ok_persistent_rows_two_chunks_per_step.py"),
    ("11/attention", "l11_attention_ok_causal_mask_alone_hides_keys_past_the_end.py"),
    ("13/persistent-matmul", "l13_persistent_matmul_ok_groups_of_tile_columns_k_offsets.py"),
    ("13/matmul-descriptors", "l13_matmul_descriptors_ok_pointer_epilogue_k_offsets_no_c_descriptor.py"),
    ("14/swiglu", "l14_swiglu_ok_two_branch_stable_sigmoid_int64_offsets.py"),
    ("14/swiglu-backward", "l14_swiglu_backward_ok_da_stored_over_dc_in_one_pass.py"),
    ("14/cross-entropy", "l14_cross_entropy_ok_running_logsumexp_merged_by_logaddexp.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT, ids=_ids(CORRECT))
def test_correct_files_pass(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result["passed"], result.get("summary")


# (exercise, file, the first failure's kind or None for any, its cause or None for any)
WRONG = [
    (
        "11/online-softmax",
        "l11_online_softmax_wrong_chunk_max_taken_per_lane.py",
        "compile",
        "loop-carried-type",
    ),
    # added by the fix session (helper h1): the same per-lane state merged after the loop, right in numbers
    (
        "11/online-softmax",
        "l11_online_softmax_wrong_per_lane_state_reduced_after_loop.py",
        "compile",
        "loop-carried-type",
    ),
    ("11/attention", "l11_attention_wrong_batch_and_head_split_mod_div_swapped.py", "oob", None),
    (
        "13/persistent-matmul",
        "l13_persistent_matmul_wrong_pid_n_from_tile_id_not_group_position.py",
        "unwritten",
        "tile-id-map",
    ),
    ("13/matmul-descriptors", "l13_matmul_descriptors_wrong_b_descriptor_shape_is_one_tile.py", "oob", None),
    ("14/swiglu", "l14_swiglu_wrong_store_cast_to_float16_literal.py", "mismatch", "dtype-only"),
    (
        "14/swiglu-backward",
        "l14_swiglu_backward_wrong_db_kernel_reads_dc_after_da_overwrote_it.py",
        "mismatch",
        None,
    ),
    (
        "14/cross-entropy",
        "l14_cross_entropy_wrong_row_offset_cast_to_int64_after_the_product.py",
        "oob",
        None,
    ),
    (
        "14/cross-entropy",
        "l14_cross_entropy_wrong_split_vocab_reads_shared_max_before_all_blocks.py",
        "cross-program-read",
        "read-during-atomics",
    ),
]


@pytest.mark.parametrize("exercise, name, kind, cause", WRONG, ids=_ids(WRONG))
def test_wrong_files_fail(worker, exercise, name, kind, cause):
    result = verify(worker, exercise, name)
    assert result["passed"] is False, "a wrong file passed"
    diag = first(result)
    if kind is not None:
        assert diag.get("kind") == kind, diag
    if cause is not None:
        assert diag.get("cause") == cause, diag


def test_a_descriptor_shape_past_the_tensor_is_named_at_the_descriptor(worker):
    name = "l13_matmul_descriptors_wrong_b_descriptor_shape_is_one_tile.py"
    error = verify(worker, "13/matmul-descriptors", name)["error"]
    assert error["line"] == line_of(name, "b = b_desc.load("), error
    assert error["detail"]["descriptor"] == "b_desc", error
    assert "where b_desc is made" in error["message"], error["message"]


def test_a_wrong_group_column_is_a_tile_id_map_at_the_tile_coords_call(worker):
    name = "l13_persistent_matmul_wrong_pid_n_from_tile_id_not_group_position.py"
    diag = first(verify(worker, "13/persistent-matmul", name))
    assert diag.get("line") == line_of(name, "pid_m, pid_n = tile_coords("), diag


def test_a_wrapped_row_offset_is_called_an_int32_wrap(worker):
    name = "l14_cross_entropy_wrong_row_offset_cast_to_int64_after_the_product.py"
    error = verify(worker, "14/cross-entropy", name)["error"]
    assert error["detail"]["int32_wrap"]["row"] == 2, error
    assert "wrapped" in error["message"], error["message"]


def test_a_per_lane_running_max_is_named_at_its_line(worker):
    # was nan-reduction with no line: the interpreter carried m from 0-d into [BLOCK_SIZE], which the GPU
    # compiler refuses ('Loop-carried variable m has initial type fp32 but is re-assigned to <['64'], fp32>');
    # interpreter_support.check_loop_carried_types now applies that rule (tests/integration/test_loop_carried_type.py).
    # The line is looked up indented: the strict xfail's `line_of(name, "m_new = …")` matched the docstring's
    # mention on line 1, so it could never have passed
    name = "l11_online_softmax_wrong_chunk_max_taken_per_lane.py"
    diag = first(verify(worker, "11/online-softmax", name))
    assert diag.get("line") == line_of(name, "        m_new = tl.maximum(m, x)"), diag
    assert (diag.get("cause"), diag.get("name"), diag.get("via")) == ("loop-carried-type", "m", "m_new"), diag
    assert diag.get("assign_line") == line_of(name, "        m = m_new"), diag
    assert diag.get("loop_line") == line_of(name, "for start in range(0, n_cols, BLOCK_SIZE):"), diag


def test_a_per_lane_state_merged_after_the_loop_does_not_pass(worker):
    # a false pass before the loop rule: right numbers on the interpreter, refused by every GPU compile
    name = "l11_online_softmax_wrong_per_lane_state_reduced_after_loop.py"
    diag = first(verify(worker, "11/online-softmax", name))
    assert (diag.get("kind"), diag.get("cause"), diag.get("name")) == ("compile", "loop-carried-type", "m"), (
        diag
    )
    assert diag.get("line") == line_of(name, "        m_new = tl.maximum(m, x)"), diag
    assert (diag.get("before_shape"), diag.get("before_dtype")) == ([], "fp32"), diag
    assert diag.get("after_shape") and diag.get("after_dtype") == "fp32", diag


@_gap(
    "the report points at the base-pointer line (q_ptr += batch * stride_qz + head * stride_qh) and asks to "
    "check the strides; the offset is exactly one q tensor (1184 = stride_qz) in program (0, 1): the split "
    "of program_id(1) into batch and head (bh % n_heads) is not named"
)
def test_a_swapped_batch_head_split_is_named(worker):
    name = "l11_attention_wrong_batch_and_head_split_mod_div_swapped.py"
    error = verify(worker, "11/attention", name)["error"]
    assert "bh % n_heads" in error["message"] or error["line"] == line_of(name, "batch = bh % n_heads"), error


def test_a_float16_literal_at_the_store_is_named(worker):
    # dtype-only named no line and told the learner to cast to 'output_ptr.dtype.element_ty', a name the file
    # does not have: verify._narrow_cast finds the one 16-bit cast a store writes
    name = "l14_swiglu_wrong_store_cast_to_float16_literal.py"
    diag = first(verify(worker, "14/swiglu", name))
    assert diag.get("line") == line_of(name, "tl.store(c_ptr + offs, c.to(tl.float16)"), diag
    assert diag.get("pointer") == "c_ptr" and "c_ptr.dtype.element_ty" in diag["message"], diag
    assert "output_ptr" not in diag["message"], diag


def test_a_gradient_read_after_being_overwritten_is_not_called_a_formula(worker):
    # grad_b was called all-wrong ('check its formula'); the formula is right: the da kernel stored da over dc
    # (da = dc) and the db kernel read dc afterwards. The runner compares dy before and after the backward.
    name = "l14_swiglu_backward_wrong_db_kernel_reads_dc_after_da_overwrote_it.py"
    diag = first(verify(worker, "14/swiglu-backward", name))
    assert diag.get("cause") == "upstream-overwritten" and diag.get("output") == "grad_b", diag
    assert diag.get("changed", 0) >= 1 and "incoming gradient" in diag["message"], diag
    # the other side: a wrong formula whose backward leaves dy alone keeps its own cause
    other = (
        Path(__file__).parent
        / "probe_round14"
        / "l14_swiglu_backward_wrong_dsilu_one_minus_silu_for_one_minus_sigmoid.py"
    )
    result = worker.request("verify", {"exercise": "14/swiglu-backward", "file": str(other)}, timeout=600)
    assert not result["passed"] and first(result).get("cause") != "upstream-overwritten", first(result)


def test_a_race_between_vocabulary_programs_is_not_called_a_loop_bug(worker):
    # was loop-steps ('what carries from one BLOCK_V step to the next') and size-threshold: the kernel has no
    # loop; the vocabulary blocks are programs of grid axis 1 reading the row max they share through atomics
    # before the row's later blocks raised it (memcheck's atomic_reads, cause read-during-atomics)
    name = "l14_cross_entropy_wrong_split_vocab_reads_shared_max_before_all_blocks.py"
    result = verify(worker, "14/cross-entropy", name)
    firsts = [c["diagnoses"][0] for c in result["cases"] if not c["passed"] and c.get("diagnoses")]
    causes = {d.get("cause") for d in firsts}
    assert not causes & {"loop-steps", "size-threshold"}, causes
    assert causes == {"read-during-atomics"}, causes
    assert all(
        (d["line"], d["atomic_line"])
        == (line_of(name, "row_max = tl.load(max_ptr + row)"), line_of(name, "tl.atomic_max("))
        for d in firsts
    ), firsts


def test_a_cast_after_the_product_is_named(worker):
    # was 'compute it in int64 (tl.program_id(0).to(tl.int64) * stride)' at the load, to a learner who did cast
    # (after the product): report._late_int64_cast names the cast's line
    name = "l14_cross_entropy_wrong_row_offset_cast_to_int64_after_the_product.py"
    error = verify(worker, "14/cross-entropy", name)["error"]
    assert error["line"] == line_of(name, "(row * stride_row).to(tl.int64)") or (
        "(row * stride_row).to(tl.int64)" in error["message"]
    ), error
    assert (
        f"line {line_of(name, 'row_start = logits_ptr + (row * stride_row).to(tl.int64)')}"
        in error["message"]
    ), error["message"]
    assert "cast before multiplying" in error["message"], error["message"]


def test_the_interpreters_overflow_warning_is_not_the_learners_output(worker):
    name = "l14_cross_entropy_wrong_row_offset_cast_to_int64_after_the_product.py"
    result = verify(worker, "14/cross-entropy", name)
    assert "overflow encountered" not in (result.get("output") or ""), result.get("output")
    warned = [w for c in result["cases"] for w in c.get("interpreter_warnings") or []]
    assert any("overflow encountered in cast" in w["message"] and w["line"] for w in warned), warned
