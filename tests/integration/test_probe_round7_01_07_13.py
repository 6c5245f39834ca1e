"""Probe round 7, lessons 1-7 and 13: held-out learner files written from the lesson texts and the starters (not
from kernels/), in the style of sources nobody here wrote (the official tutorials, Triton-Puzzles), none of them
tried by rounds 1-6.

Correct-but-different files (1D tensor descriptors for the fused GELU, do_not_specialize and an all-keyword launch,
tl.static_assert and tl.multiple_of / tl.max_contiguous hints, tl.full with a tl.cdiv guard in the kernel, a grid
read from @triton.heuristics' meta, blocks and lanes walked backwards, an in-place kernel on a clone, clamped offsets
for loads AND store, torch._check / torch._check_type, a [rows, 32] tile per program, a strided copy launched on
transposed views, a bias broadcast by b.expand (stride 0), tl.permute with cache/eviction hints, tl.swizzle2d for the
grouped order, K offsets in tl.range(num_stages=) with wrapped offsets and keyword-only launch, the tutorial's
EPILOGUE_SUBTILE split store) must pass.
Realistic wrong files (tl.where after an unmasked load, one power-of-two program without a mask, a broadcast-shapes
check, descriptors over an offset view, autotune owning the sweep's knobs, tanh as an overflowing exp ratio, b read
with x's stride, a transposed store masked on one axis, a tile loop one short, a grouped column with the full group
height, C's descriptor rounded up to whole tiles, a K loop with a floor trip count) must fail, and the first
diagnosis must name the real cause (and the learner's line where the lab gives one). Tests marked xfail state the
RIGHT verdict where the lab is wrong or misleading today; strict, so they fail loudly once fixed.
"""

from pathlib import Path

import pytest

PROBES = Path(__file__).parent / "probe_round7_01_07_13"

FG, CP, GT = "1/fused-gelu", "2/copy", "2/gelu-tanh"
PM, GS = "3/program-map", "3/grid-size"
SS, FO, RS = "4/scale-shift", "4/fix-oob", "4/runtime-shape"
AD, AC = "5/add", "5/add-checked"
C6 = "6/copy"
C2, TR, BA = "7/copy-2d", "7/transpose", "7/bias-add"
PMM, MD = "13/persistent-matmul", "13/matmul-descriptors"


_CACHE: dict = {}


def verify(worker, exercise, name):
    key = (exercise, name)
    if key not in _CACHE:  # several tests read one verdict: verify each file once per module
        _CACHE[key] = worker.request(
            "verify", {"exercise": exercise, "file": str(PROBES / name)}, timeout=600
        )
    if _CACHE[key].get("skipped"):  # an older Triton without tensor descriptors
        pytest.skip(f"{exercise} is skipped on this Triton: {_CACHE[key]['skipped']}")
    return _CACHE[key]


def kinds(case) -> set:
    return {d["kind"] for d in case["diagnoses"]}


def failed(result) -> list:
    return [c for c in result["cases"] if not c["passed"]]


def public_failed(result) -> list:
    """Failing listed cases (the random case of each verify has a secret size: left out of the exact checks)."""
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
    assert not result["passed"], "a wrong file passed"
    error = result.get("error")
    assert error is not None and error["kind"] == kind, error
    assert error["line"] == line_of(name, snippet), (error["line"], error["message"])
    return error


def assert_fails(result):
    assert not result["passed"], "a wrong file passed"


# --- correct but different: PASS ------------------------------------------------------------------------------------

CORRECT = [
    (FG, "l01_fused_gelu_ok_tensor_descriptor_1d.py"),
    (CP, "l02_copy_ok_keyword_launch_do_not_specialize.py"),
    (GT, "l02_gelu_tanh_ok_static_assert_hints.py"),
    (PM, "l03_program_map_ok_tl_full_cdiv_guard.py"),
    (GS, "l03_grid_size_ok_heuristics_num_blocks.py"),
    (RS, "l04_runtime_shape_ok_reversed_block_order.py"),
    (SS, "l04_scale_shift_ok_in_place_on_a_clone.py"),
    (AD, "l05_add_ok_clamped_store_same_value.py"),
    (AC, "l05_add_checked_ok_torch_check.py"),
    (C6, "l06_copy_ok_2d_tile_of_rows.py"),
    (C2, "l07_copy_2d_ok_walk_input_storage_order.py"),
    (BA, "l07_bias_add_ok_expanded_bias_zero_stride.py"),
    (TR, "l07_transpose_ok_permute_cache_hints.py"),
    (PMM, "l13_persistent_matmul_ok_swizzle2d.py"),
    (PMM, "l13_persistent_matmul_ok_k_offsets_tl_range_stages.py"),
    (MD, "l13_matmul_descriptors_ok_epilogue_subtile.py"),
]


@pytest.mark.parametrize("exercise, name", CORRECT)
def test_correct_but_different_passes(worker, exercise, name):
    result = verify(worker, exercise, name)
    assert result.get("error") is None, result.get("error")
    assert result["passed"], [(c["name"], kinds(c)) for c in failed(result)]


# --- lessons 2 and 4: masks and the tail ------------------------------------------------------------------------------


def test_fix_oob_where_after_unmasked_load_stops_at_the_load(worker):
    """tl.where picks values after the access: the unmasked load is the out-of-bounds line, not the store."""
    name = "l04_fix_oob_wrong_where_after_unmasked_load.py"
    error = stops_at(verify(worker, FO, name), "oob", name, "x = tl.load(x_ptr + offsets)")
    assert "x_ptr" in error["message"] and "mask" in error["message"], error["message"]


def test_runtime_shape_next_pow2_block_without_mask_stops_at_the_load(worker):
    name = "l04_runtime_shape_wrong_next_pow2_one_program_unmasked.py"
    result = verify(worker, RS, name)
    error = stops_at(result, "oob", name, "x = tl.load(x_ptr + offsets)")
    assert error["case"].startswith("n=97"), error  # n = 1 is a power of two: its cases pass
    assert "mask" in error["message"], error["message"]


def test_gelu_tanh_overflowing_exp_ratio_fails_on_its_arithmetic(worker):
    """Was a false pass (randn inputs never reached |x| > 10). The lab's x is randn * 4 now, and the NaN is
    blamed on the arithmetic with x's values there — not on the load without other= (a second run with that
    padding left 0 keeps every NaN)."""
    result = verify(worker, GT, "l02_gelu_tanh_wrong_tanh_exp_ratio_overflows.py")
    assert_fails(result)
    diag = first_diag(result)
    assert diag["kind"] == "nan" and diag.get("cause") is None and diag.get("finite_inputs") is True, diag
    assert "other=" not in diag["message"] and "overflows" in diag["message"], diag["message"]
    assert all(abs(v) > 10 for v in diag["values"]["x"]), diag


# --- lesson 5: the wrapper's checks -----------------------------------------------------------------------------------


def test_add_checked_broadcast_shapes_check_fails(worker):
    """Was a false pass: torch.broadcast_shapes refuses every other listed pair but accepts y of shape (1,) next
    to x of shape (100,) (the kernel reads 99 elements past y's end). The reject "y broadcasts" catches it."""
    result = verify(worker, AC, "l05_add_checked_wrong_broadcast_shapes_check.py")
    assert_fails(result)
    rejects = [c for c in failed(result) if c.get("kind") == "reject" or c["name"].startswith("rejects")]
    assert rejects, [c["name"] for c in failed(result)]


def test_add_checked_descriptor_over_offset_view_stops_at_y_descriptor(worker):
    """A descriptor's base must be 16-byte aligned: y (a view 3 elements into its buffer) is valid input that the
    file cannot take. The verify stops on y's make_tensor_descriptor line quoting the alignment rule."""
    name = "l05_add_checked_wrong_descriptor_rejects_offset_view.py"
    result = verify(worker, AC, name)
    error = stops_at(result, "runtime", name, "y_desc = tl.make_tensor_descriptor(")
    assert "16-byte" in error["message"], error["message"]
    assert all(
        c["passed"] for c in result["cases"] if c.get("params", {}).get("n") == 0
    )  # no launch at n = 0


def test_add_checked_descriptor_over_offset_view_names_y(worker):
    """Was Triton's raw 'AssertionError: base must be 16-byte aligned'; now cause descriptor-base, naming y_ptr."""
    result = verify(worker, AC, "l05_add_checked_wrong_descriptor_rejects_offset_view.py")
    message = first_message(result)
    assert "y_ptr" in message and "AssertionError" not in message, message
    assert result["error"].get("cause") == "descriptor-base" and result["error"].get("base") == "y_ptr"


# --- lesson 6: the sweep's knobs --------------------------------------------------------------------------------------


def test_copy_autotune_owning_the_knobs_is_knob_ignored(worker):
    result = verify(worker, C6, "l06_copy_wrong_autotune_drops_knobs.py")
    assert_fails(result)
    bad = public_failed(result)
    assert bad and all(kinds(c) == {"knob-ignored"} for c in bad), [(c["name"], kinds(c)) for c in bad]
    assert "BLOCK_SIZE" in first_message(result)


# --- lesson 7: strides and masks --------------------------------------------------------------------------------------


def test_bias_add_b_read_with_x_stride_names_the_stride(worker):
    name = "l07_bias_add_wrong_b_stride_from_x.py"
    result = verify(worker, BA, name)
    error = stops_at(result, "oob", name, "bias = tl.load(b_ptr + cols * stride_xn")
    assert "b_ptr" in error["message"] and "stride_xn" in error["message"], error["message"]
    assert error["case"].startswith("M=7"), error  # M = 1: stride_xn is 1 there, the case passes


def test_transpose_store_masked_on_one_axis_names_the_missing_bound(worker):
    name = "l07_transpose_wrong_store_mask_one_axis.py"
    error = stops_at(
        verify(worker, TR, name), "oob", name, "tl.store(out_ptrs, tl.trans(tile), mask=out_mask)"
    )
    message = error["message"]
    assert "store" in message and "out_mask" in message and "rows" in message, message


# --- lesson 13: persistent matmul -------------------------------------------------------------------------------------


def test_persistent_tile_loop_one_short_fails_every_case_unwritten(worker):
    result = verify(worker, PMM, "l13_persistent_matmul_wrong_tile_loop_stops_one_short.py")
    bad = public_failed(result)
    assert bad and not public_passed(result)
    assert all("unwritten" in kinds(c) for c in bad)


def test_persistent_tile_loop_one_short_first_diagnosis_names_the_loop(worker):
    """Was 'a return (or an if) before the store skips it' at M = N = K = 1 (the loop range(pid, num_tiles - 1, P)
    is empty there); the store sits in that loop, so the tile loop and its line are named."""
    name = "l13_persistent_matmul_wrong_tile_loop_stops_one_short.py"
    diag = first_diag(verify(worker, PMM, name))
    assert diag.get("cause") == "tile-loop", diag
    assert diag["line"] == line_of(name, "for tile_id in tl.range(tl.program_id(axis=0), num_tiles - 1"), diag
    assert "loop" in diag["message"] and "a return (or an if)" not in diag["message"], diag["message"]


def test_persistent_group_column_full_height_fails_only_grouped(worker):
    result = verify(worker, PMM, "l13_persistent_matmul_wrong_group_column_full_height.py")
    bad = public_failed(result)
    assert bad and all("GROUP_M=1" not in c["name"] for c in bad)
    assert all(c["params"]["M"] > 1 for c in bad)  # one tile: nothing to reorder
    assert {"unwritten", "stored-twice"} <= kinds(bad[0]), kinds(bad[0])


def test_persistent_group_column_full_height_names_the_grouped_order(worker):
    """Was 'step the tile loop by the number of programs' for a loop that does; the grouped mapping is named."""
    result = verify(worker, PMM, "l13_persistent_matmul_wrong_group_column_full_height.py")
    messages = [d["message"] for d in failed(result)[0]["diagnoses"]]
    assert not any("step the tile loop by the number of programs" in m for m in messages), messages
    assert any("GROUP_M" in m or "group" in m for m in messages), messages


# --- lesson 13: tensor descriptors ------------------------------------------------------------------------------------


def test_descriptors_c_shape_rounded_up_stops_at_the_store(worker):
    name = "l13_matmul_descriptors_wrong_c_shape_rounded_to_tiles.py"
    error = stops_at(verify(worker, MD, name), "oob", name, "c_desc.store([off_m, off_n]")
    message = error["message"]
    assert "c_desc" in message and "shape" in message and "mask=" not in message, message


def test_descriptors_k_loop_floor_fails_only_k_below_block(worker):
    result = verify(worker, MD, "l13_matmul_descriptors_wrong_k_loop_floor.py")
    bad = public_failed(result)
    assert bad and all(c["params"]["K"] == 8 for c in bad), [c["name"] for c in bad]
    diag = first_diag(result)
    assert diag["kind"] == "mismatch" and diag.get("cause") == "computed-zero", diag


def test_descriptors_k_loop_floor_names_the_k_loop(worker):
    """Was 'the kernel computes 0: check what the computation starts from'; the loop range(K // BLOCK_K) is named."""
    name = "l13_matmul_descriptors_wrong_k_loop_floor.py"
    diag = first_diag(verify(worker, MD, name))
    assert "BLOCK_K" in diag["message"] and "loop" in diag["message"], diag["message"]
    assert diag["loop_line"] == line_of(name, "range(K // BLOCK_K)"), diag
