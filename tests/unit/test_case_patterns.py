"""Cross-case and value patterns that name a cause (engine/tasks/verify.py), each with a false-positive case."""

import torch

from tritonlab.engine.tasks.verify import _carried_tiles, _case_patterns, _explain_values, _overlapped


def _case(dtype, passed, K=None, block_k=None, cause=None):
    case = {"params": {"M": 4, "N": 4, **({"K": K} if K else {})}, "dtype": dtype, "passed": passed}
    case["diagnoses"] = (
        [] if passed else [{"kind": "mismatch", "cause": cause, "message": "3 elements differ: x"}]
    )
    if block_k:
        case["meta"] = {"BLOCK_K": block_k}
    return case


def test_only_one_dtype_failing_is_named_and_not_when_others_fail_too():
    cases = [_case("float16", False), _case("float16", True), _case("float32", True), _case("bfloat16", True)]
    _case_patterns(cases, ["float16", "float32", "bfloat16"])
    first = cases[0]["diagnoses"][0]
    assert first["cause"] == "dtype-only" and first["passing"] == ["bfloat16", "float32"]
    mixed = [_case("float16", False), _case("float32", False), _case("float32", True)]
    _case_patterns(mixed, ["float16", "float32"])
    assert mixed[0]["diagnoses"][0]["cause"] is None


def test_k_steps_pattern_needs_every_multi_step_case_failing_and_every_single_step_passing():
    cases = [_case("float16", True, K=16, block_k=32), _case("float16", False, K=65, block_k=32)]
    _case_patterns(cases, ["float16"])
    assert cases[1]["diagnoses"][0]["cause"] == "k-steps"
    also_single = [_case("float16", False, K=16, block_k=32), _case("float16", True, K=8, block_k=32)]
    also_single.append(_case("float16", False, K=65, block_k=32))
    _case_patterns(also_single, ["float16"])
    assert all(d["cause"] is None for c in also_single for d in c["diagnoses"])


def test_right_values_in_the_wrong_places_and_not_for_wrong_values():
    expected = torch.arange(12.0).reshape(3, 4)
    permuted = [{"kind": "mismatch", "cause": None, "message": "12 elements differ: x"}]
    _explain_values(permuted, expected.t().reshape(3, 4), expected, {}, 1e-5, 1e-5)
    assert permuted[0]["cause"] == "permuted"
    wrong = [{"kind": "mismatch", "cause": None, "message": "12 elements differ: x"}]
    _explain_values(wrong, expected + 1, expected, {}, 1e-5, 1e-5)
    assert wrong[0]["cause"] is None


def test_a_near_miss_is_precision_not_misplaced_values_and_a_far_miss_is_not_a_near_one():
    """Errors just over the tolerance sort into the expected values too: that used to say "wrong places"
    (FlashAttention with q pre-scaled in fp16, H200). Near: every wrong element within 4x its allowance."""
    torch.manual_seed(0)
    expected = torch.randn(64, 32)
    noise = torch.where(torch.rand(64, 32) < 0.05, 0.02, 0.0) * torch.sign(torch.randn(64, 32))
    near = [{"kind": "mismatch", "cause": None, "message": "99 elements differ: x"}]
    _explain_values(near, expected + noise, expected, {}, 0.01, 0.0)
    assert near[0]["cause"] is None and near[0]["near_miss"] == 2.0, near
    assert "nearly right" in near[0]["message"] and "wrong places" not in near[0]["message"]
    far = [{"kind": "mismatch", "cause": None, "message": "99 elements differ: x"}]
    _explain_values(far, expected + 5 * noise, expected, {}, 0.01, 0.0)  # 10x the tolerance
    assert "near_miss" not in far[0] and "nearly right" not in far[0]["message"], far
    swapped = [{"kind": "mismatch", "cause": None, "message": "12 elements differ: x"}]
    values = torch.arange(12.0).reshape(3, 4)
    _explain_values(swapped, values.t().reshape(3, 4), values, {}, 1e-5, 1e-5)
    assert swapped[0]["cause"] == "permuted" and "near_miss" not in swapped[0]


def test_a_softmax_nan_is_a_missing_max_only_where_exp_can_overflow():
    small = torch.zeros(2, 8)
    diag = [{"kind": "nan", "cause": "softmax", "rows": [0, 1], "message": "rows 0-1 have NaN: x"}]
    _explain_values(diag, torch.zeros(2, 8), torch.zeros(2, 8), {"x": small}, 1e-5, 1e-5)
    assert diag[0]["cause"] == "nan-reduction"
    large = torch.full((2, 8), 95.0)
    kept = [{"kind": "nan", "cause": "softmax", "rows": [0, 1], "message": "rows 0-1 have NaN: x"}]
    _explain_values(kept, torch.zeros(2, 8), torch.zeros(2, 8), {"x": large}, 1e-5, 1e-5)
    assert kept[0]["cause"] == "softmax"


def test_a_constant_factor_is_named_and_a_varying_error_is_not():
    expected = torch.linspace(1.0, 2.0, 12).reshape(3, 4)
    scaled = [{"kind": "mismatch", "cause": None, "message": "12 elements differ: x"}]
    _explain_values(scaled, expected / 4.0, expected, {}, 1e-5, 1e-5)
    assert scaled[0]["cause"] == "scaled" and scaled[0]["factor"] == 0.25
    noisy = [{"kind": "mismatch", "cause": None, "message": "12 elements differ: x"}]
    _explain_values(noisy, expected + torch.linspace(0.1, 0.9, 12).reshape(3, 4), expected, {}, 1e-5, 1e-5)
    assert noisy[0]["cause"] is None


def test_a_reduction_without_axis_is_named_only_in_a_file_with_2d_tiles(tmp_path):
    from tritonlab.engine.tasks.verify import _reduction_without_axis

    tiled = tmp_path / "tiled.py"
    tiled.write_text(
        "x = ptr + rows[:, None] * s + cols[None, :]\ntotal = tl.sum(acc)\nok = tl.sum(acc, axis=1)\n"
    )
    assert _reduction_without_axis(str(tiled)) == (2, "tl.sum(acc)")
    flat = tmp_path / "flat.py"  # a 1D block: tl.sum(x) is the whole block, nothing to name
    flat.write_text("x = tl.load(ptr + offs, mask=m)\ntotal = tl.sum(x)\n")
    assert _reduction_without_axis(str(flat)) is None
    with_axis = tmp_path / "axis.py"
    with_axis.write_text("x = ptr + rows[:, None]\nm = tl.max(x, 1)\ns = tl.sum(x, axis=1)\n")
    assert _reduction_without_axis(str(with_axis)) is None


def test_near_misses_are_not_blamed_on_the_k_steps_and_a_far_miss_still_is():
    near = [_case("float16", True, K=16, block_k=32), _case("float16", False, K=65, block_k=32)]
    near[1]["diagnoses"][0]["near_miss"] = 1.4
    _case_patterns(near, ["float16"])
    assert near[1]["diagnoses"][0]["cause"] is None  # precision grows with the steps: not a pointer bug
    far = [_case("float16", True, K=16, block_k=32), _case("float16", False, K=65, block_k=32)]
    _case_patterns(far, ["float16"])
    assert far[1]["diagnoses"][0]["cause"] == "k-steps"


def test_unwritten_rows_beside_elements_stored_twice_blame_the_store_offset_not_the_grid():
    def rows_short():
        return [{"kind": "unwritten", "cause": "rows-short", "message": "rows 1-2 were never written: grid"}]

    overlaps = {"overlaps": [{"kernel": "k", "file": "/w/learner.py", "argument": "dx_ptr", "count": 7}]}
    named = rows_short()
    _overlapped(named, overlaps, "/w/learner.py")
    assert named[0]["cause"] == "overlap" and named[0]["overlap_argument"] == "dx_ptr", named
    assert "grid" not in named[0]["message"].split(":", 1)[1] and "row * N" in named[0]["message"]
    kept = rows_short()
    _overlapped(kept, {"overlaps": []}, "/w/learner.py")
    assert kept[0]["cause"] == "rows-short"  # nothing stored twice: the grid guess stands
    foreign = rows_short()
    _overlapped(
        foreign, {"overlaps": [dict(overlaps["overlaps"][0], file="/lab/kernels.py")]}, "/w/learner.py"
    )
    assert foreign[0]["cause"] == "rows-short"  # the lab's own kernels do not count


def test_tiles_that_carry_the_previous_tiles_sum_are_named_and_unrelated_errors_are_not():
    """Two programs, two tiles each (row-major order): the second tile of each is right + the first's output."""
    torch.manual_seed(0)
    expected = torch.randn(8, 8) * 3
    got = expected.clone()
    got[0:4, 4:8] += got[0:4, 0:4]  # program 0: tile (0, 0), then (0, 1) carrying it
    got[4:8, 4:8] += got[4:8, 0:4]  # program 1: tile (1, 0), then (1, 1)
    carried = [{"kind": "mismatch", "cause": None, "message": "32 elements differ: x"}]
    _carried_tiles(carried, got, expected, {"BLOCK_M": 4, "BLOCK_N": 4}, 1e-3, 1e-3)
    assert carried[0]["cause"] == "carried-acc" and carried[0]["tiles"] == 2, carried
    noise = expected + torch.randn(8, 8)  # wrong everywhere, by nothing another tile holds
    plain = [{"kind": "mismatch", "cause": None, "message": "64 elements differ: x"}]
    _carried_tiles(plain, noise, expected, {"BLOCK_M": 4, "BLOCK_N": 4}, 1e-3, 1e-3)
    assert plain[0]["cause"] is None
    zeros = expected.clone()
    zeros[0:4, 0:4] = 0  # a tile never written (zeros) next to a tile off by a little: no carry
    zeros[4:8, 4:8] += 2e-3
    quiet = [{"kind": "mismatch", "cause": None, "message": "32 elements differ: x"}]
    _carried_tiles(quiet, zeros, expected, {"BLOCK_M": 4, "BLOCK_N": 4}, 1e-3, 1e-3)
    assert quiet[0]["cause"] is None, quiet


def test_a_large_output_is_checked_for_carried_tiles_in_a_sample_and_quickly():
    """A 4096 x 4096 GPU case with 64 x 64 tiles (4,096 tiles): testing every wrong tile against every tile one
    slice at a time took minutes per case (eleventh session, H200); a sample of the wrong tiles, each against all
    tiles at once, says the same in well under a second — and an unrelated error stays unnamed."""
    import time

    torch.manual_seed(0)
    expected = torch.randn(2048, 2048)
    got = expected.clone()
    tiles = got.reshape(32, 64, 32, 64)  # a view: row-major tile (r, c) = tiles[r, :, c, :]
    for c in range(1, 32):  # each program walks one tile row: every tile after the first carries its left one
        tiles[:, :, c, :] += tiles[:, :, c - 1, :]  # its right value plus the output before it
    carried = [{"kind": "mismatch", "cause": None, "message": "many elements differ: x"}]
    began = time.perf_counter()
    _carried_tiles(carried, got, expected, {"BLOCK_M": 64, "BLOCK_N": 64}, 1e-3, 1e-3)
    assert time.perf_counter() - began < 20.0  # the old pairwise check: minutes; a loaded 2-core box: 5+ s
    assert carried[0]["cause"] == "carried-acc", carried
    assert carried[0]["tiles_checked"] == 32 and carried[0]["tiles_total"] == 32 * 31, carried
    assert "checked (of 992)" in carried[0]["message"]
    noise = [{"kind": "mismatch", "cause": None, "message": "every element differs: x"}]
    began = time.perf_counter()
    _carried_tiles(
        noise, expected + torch.randn(2048, 2048), expected, {"BLOCK_M": 64, "BLOCK_N": 64}, 1e-3, 1e-3
    )
    assert time.perf_counter() - began < 20.0  # the old pairwise check: minutes; a loaded 2-core box: 5+ s
    assert noise[0]["cause"] is None, noise


def test_rows_off_by_their_own_factors_are_found_all_at_once_and_other_bugs_are_not():
    """_row_factors (all rows at once): rows scaled by different factors, rows right beside scaled ones; a
    row that is not a pure scale, or one factor for every row (that is `scaled`), gives nothing."""
    from tritonlab.engine.tasks.verify import _row_factors

    torch.manual_seed(0)
    expected = torch.randn(6, 50)
    got = expected.clone()
    got[1] *= 2.0
    got[4] *= 0.25
    assert _row_factors(got, expected) == [(1, 2.0), (4, 0.25)]
    one = expected.clone()
    one[2] *= 3.0  # one scaled row, the others right: still named
    assert _row_factors(one, expected) == [(2, 3.0)]
    assert _row_factors(expected * 1.5, expected) == []  # the whole output: `scaled`, said elsewhere
    noisy = got.clone()
    noisy[3] += torch.randn(50) * 0.1  # not a scale: some other bug
    assert _row_factors(noisy, expected) == []
    zero_row = got.clone()
    expected_zero = expected.clone()
    expected_zero[5] = 0.0
    zero_row[5] = 0.0  # a row with nothing to compare is skipped, not counted
    assert _row_factors(zero_row, expected_zero) == [(1, 2.0), (4, 0.25)]


def _wide_failure(lossy16):
    """float32 fails and float16 passes, the float32 error of 16-bit size (not the 'small' 2e-5 kind)."""
    cases = [_case("float32", False), _case("float32", False), _case("float16", True), _case("float16", True)]
    for case in cases[:2]:
        case["max_rel_err"] = 1e-3
        if lossy16 is not None:
            case["diagnoses"][0]["lossy16"] = lossy16
    return cases


def test_a_float32_only_failure_is_16_bit_rounding_only_with_16_bit_evidence():
    """float32 alone failing is 16-bit rounding when the file names a 16-bit type or dot, or the values are
    16-bit numbers (lossy16); a float32 kernel without either has a formula that differs (tanh for erf GELU)."""
    rounded = _wide_failure(True)
    _case_patterns(rounded, ["float32", "float16"])
    assert rounded[0]["diagnoses"][0]["cause"] == "dtype-only"
    formula = _wide_failure(False)
    _case_patterns(formula, ["float32", "float16"])
    first = formula[0]["diagnoses"][0]
    assert first["cause"] == "formula" and "16-bit type somewhere" not in first["message"], first
    assert "formula" in first["message"] and first["passing"] == ["float16"]
    unknown = _wide_failure(None)  # facts without the evidence (an older report): the 16-bit wording stands
    _case_patterns(unknown, ["float32", "float16"])
    assert unknown[0]["diagnoses"][0]["cause"] == "dtype-only"


def test_a_near_miss_is_judged_on_every_failing_case():
    cases = [_case("float32", False), _case("float32", False), _case("float32", True)]
    cases[0]["diagnoses"][0].update(
        near_miss=1.1, message="1 element differs: every wrong element is within 1.1×"
    )
    _case_patterns(cases, ["float32"])
    first = cases[0]["diagnoses"][0]
    assert "near_miss" not in first and "within" not in first["message"], first
    both = [_case("float32", False), _case("float32", False), _case("float32", True)]
    for case in both[:2]:
        case["diagnoses"][0]["near_miss"] = 1.4
    _case_patterns(both, ["float32"])
    assert all(c["diagnoses"][0]["near_miss"] == 1.4 for c in both[:2])


def test_the_16_bit_evidence_from_the_file_and_from_the_values(tmp_path):
    from tritonlab.engine.tasks.verify import _lossy_steps, _rounded16

    plain = tmp_path / "plain.py"
    plain.write_text(
        "import triton.language as tl\n# fp16 inputs lose nothing: computed in float32\n"
        "def f(x, y_ptr):\n    if x.dtype not in (torch.float16, torch.bfloat16):\n        raise TypeError\n"
        "    return x.to(tl.float32).to(y_ptr.dtype.element_ty)\n"
    )
    assert not _lossy_steps(str(plain))  # a comment and a dtype check name fp16; nothing rounds to it
    for body in (
        "y = x.to(tl.float16)",
        "acc = tl.dot(a, b)",
        "y = x.half()",
        "z = tl.zeros([8], tl.bfloat16)",
    ):
        lossy = tmp_path / "lossy.py"
        lossy.write_text(f"import triton.language as tl\ndef f(x, a, b):\n    {body}\n")
        assert _lossy_steps(str(lossy)), body
    assert _lossy_steps(None) and _lossy_steps(str(tmp_path / "missing.py"))
    torch.manual_seed(0)
    expected = torch.randn(64)
    assert _rounded16(expected.half().float(), expected)
    assert _rounded16(expected.bfloat16().float(), expected)
    assert not _rounded16(expected * 1.001, expected)


def test_a_float32_near_miss_without_a_16_bit_step_is_a_small_formula_error():
    torch.manual_seed(0)
    expected = torch.randn(64, 32)
    noise = torch.where(torch.rand(64, 32) < 0.05, 0.02, 0.0) * torch.sign(torch.randn(64, 32))
    diag = [{"kind": "mismatch", "cause": None, "message": "99 elements differ: x"}]
    _explain_values(diag, expected + noise, expected, {}, 0.01, 0.0, learner_file=None)
    assert diag[0]["lossy16"] is True and "fp16/bf16" in diag[0]["message"]  # no file read: the old wording


def test_a_float32_near_miss_in_a_plain_float32_file_names_the_formula(tmp_path):
    plain = tmp_path / "k.py"
    plain.write_text("import triton.language as tl\ndef k(x):\n    return x * 0.798\n")
    torch.manual_seed(0)
    expected = torch.randn(64, 32)
    noise = torch.where(torch.rand(64, 32) < 0.05, 0.02, 0.0) * torch.sign(torch.randn(64, 32))
    diag = [{"kind": "mismatch", "cause": None, "message": "99 elements differ: x"}]
    _explain_values(diag, expected + noise, expected, {}, 0.01, 0.0, learner_file=str(plain))
    assert diag[0]["lossy16"] is False and diag[0]["near_miss"] == 2.0
    assert "fp16/bf16" not in diag[0]["message"] and "constant" in diag[0]["message"], diag[0]["message"]


def test_a_store_that_never_ran_is_named_and_a_masked_off_one_is_not():
    from tritonlab.engine.tasks.verify import _refine_stores

    def none_written():
        return [{"kind": "unwritten", "cause": "none-written", "count": 1, "numel": 1, "message": "x: y"}]

    never = none_written()
    _refine_stores(never, {"store_calls": 0, "store_lanes": 0, "stored_poison": 0}, True)
    assert never[0]["cause"] == "store-never-ran" and "return" in never[0]["message"], never
    unlaunched = none_written()  # no learner launch at all: not this
    _refine_stores(unlaunched, {"store_calls": 0, "store_lanes": 0, "stored_poison": 0}, False)
    assert unlaunched[0]["cause"] == "none-written"
    gpu = none_written()  # no interpreter record of the stores
    _refine_stores(gpu, {}, True)
    assert gpu[0]["cause"] == "none-written"
    masked = none_written()
    _refine_stores(masked, {"store_calls": 2, "store_lanes": 0, "stored_poison": 0}, True)
    assert masked[0]["cause"] == "masked-off"


def _unwritten_case(n, degree, written):
    diag = {
        "kind": "unwritten",
        "cause": "partial-blocks",
        "count": n - written,
        "numel": n,
        "message": "h: x",
    }
    return {"params": {"n": n, "degree": degree}, "dtype": "float32", "passed": False, "diagnoses": [diag]}


def test_a_written_count_equal_to_another_argument_is_the_argument_order():
    cases = [_unwritten_case(1, 0, 0), _unwritten_case(97, 1, 1), _unwritten_case(1000, 3, 3)]
    cases[0]["diagnoses"][0]["cause"] = "masked-off"
    _case_patterns(cases, ["float32"])
    first = cases[0]["diagnoses"][0]
    assert first["cause"] == "args-order" and first["param"] == "degree" and "argument" in first["message"]
    other = [_unwritten_case(97, 1, 32), _unwritten_case(1000, 3, 128)]  # a tail lost: not the arguments
    _case_patterns(other, ["float32"])
    assert other[0]["diagnoses"][0]["cause"] == "partial-blocks"
    zeros = [_unwritten_case(97, 0, 0), _unwritten_case(1000, 0, 0)]  # nothing written anywhere: no evidence
    for case in zeros:
        case["diagnoses"][0]["cause"] = "none-written"
    _case_patterns(zeros, ["float32"])
    assert zeros[0]["diagnoses"][0]["cause"] == "none-written"


def _mismatch_in(programs, n_programs, cause=None):
    diag = {"kind": "mismatch", "cause": cause, "programs": programs, "n_programs": n_programs}
    diag["message"] = (
        "1 element differs, only in the last, partial block (x): check the mask and the other= value"
    )
    return {"params": {"n": 1}, "dtype": "float32", "passed": False, "diagnoses": [diag]}


def test_a_tail_block_claim_is_withdrawn_when_another_case_has_earlier_programs_wrong():
    zeros = [_mismatch_in([[1, 1]], 2, "tail-block"), _mismatch_in([[1, 3]], 4), _mismatch_in([[1, 7]], 8)]
    zeros.append({"params": {"n": 1}, "dtype": "float32", "passed": True, "diagnoses": []})
    _case_patterns(zeros, ["float32"])
    first = zeros[0]["diagnoses"][0]
    assert first["cause"] == "all-but-first" and "other=" not in first["message"], first
    mixed = [_mismatch_in([[1, 1]], 2, "tail-block"), _mismatch_in([[0, 0], [3, 3]], 4)]
    _case_patterns(mixed, ["float32"])
    assert (
        mixed[0]["diagnoses"][0]["cause"] is None
        and "not only the last block" in mixed[0]["diagnoses"][0]["message"]
    )
    tail = [_mismatch_in([[1, 1]], 2, "tail-block"), _mismatch_in([[3, 3]], 4)]  # the last block everywhere
    _case_patterns(tail, ["float32"])
    assert tail[0]["diagnoses"][0]["cause"] == "tail-block"


def test_the_narrow_cast_is_found_only_where_it_is_one_or_the_store_writes_it(tmp_path):
    """Probe round 15: dtype-only named no line and a pointer the file did not have."""
    from tritonlab.engine.tasks.verify import _narrow_cast

    def cast_of(body: str):
        path = tmp_path / "k.py"
        path.write_text("import triton.language as tl\n\n\ndef k(x_ptr, out_ptr, n):\n" + body)
        return _narrow_cast(str(path))

    stored = cast_of("    y = tl.load(x_ptr)\n    tl.store(out_ptr + 1, (y * 2).to(tl.float16))\n")
    assert stored == {"line": 6, "cast": "(y * 2).to(tl.float16)", "pointer": "out_ptr"}
    assert cast_of("    y = tl.cast(tl.load(x_ptr), tl.bfloat16)\n    tl.store(out_ptr, y)\n") == {
        "line": 5,
        "cast": "tl.cast(tl.load(x_ptr), tl.bfloat16)",
    }
    # two casts and neither is stored: no guess; float32 casts are no narrowing; a dtype check is no cast
    two = "    a = x.to(tl.float16)\n    b = x.to(tl.bfloat16)\n    tl.store(out_ptr, a + b)\n"
    assert cast_of(two) is None
    assert cast_of("    tl.store(out_ptr, tl.load(x_ptr).to(tl.float32))\n") is None
    assert cast_of("    if x_ptr.dtype.element_ty == tl.float16:\n        pass\n") is None


def test_a_load_named_for_an_unread_input_is_found_only_when_it_reads_another_pointer(tmp_path):
    """Probe round 15: input-unread named no line for `y = tl.load(x_ptr + offsets)`."""
    from tritonlab.engine.tasks.verify import _load_named_for

    def found(body: str, name: str = "y"):
        path = tmp_path / "k.py"
        path.write_text("import triton.language as tl\n\n\ndef k(x_ptr, y_ptr, o):\n" + body)
        return _load_named_for(str(path), name)

    assert found("    x = tl.load(x_ptr + o)\n    y = tl.load(x_ptr + o, mask=o < 4)\n") == (6, "x_ptr")
    assert found("    y_tile = tl.load(x_ptr + o).to(tl.float32)\n") == (5, "x_ptr")
    # through its own pointer (a different slip: no claim), or no load named for y, or two: nothing
    assert found("    y = tl.load(y_ptr + o + 1)\n") is None
    assert found("    b = tl.load(x_ptr + o)\n") is None
    assert found("    y = tl.load(x_ptr + o)\n    y_2 = tl.load(x_ptr + o + 4)\n") is None


def test_an_overwritten_upstream_names_the_wrong_gradient_only_when_nothing_else_did():
    """Probe round 15: a backward that stored da over dc, then read dc again, was told 'check its formula'."""
    import torch

    from tritonlab.engine.outputs import _changed
    from tritonlab.engine.tasks.verify import _upstream_overwritten

    before = torch.tensor([1.0, float("nan"), 3.0])
    assert _changed(before.clone(), before) == 0  # NaN stays NaN: nothing was written
    assert _changed(torch.tensor([1.0, float("nan"), 4.0]), before) == 1

    def wrong(cause):
        return [
            {"kind": "mismatch", "cause": cause, "output": "grad_b", "message": "grad_b: 4 elements differ"}
        ]

    said = wrong("all-wrong")
    _upstream_overwritten({"upstream_changed": 12}, said)
    assert (said[0]["cause"], said[0]["changed"]) == ("upstream-overwritten", 12)
    assert said[0]["message"].startswith("grad_b: 4 elements differ: your backward wrote into its incoming")
    # dy untouched, or a sharper cause already found: left alone
    for facts, cause in (
        ({}, "all-wrong"),
        ({"upstream_changed": 0}, None),
        ({"upstream_changed": 3}, "carried-acc"),
    ):
        kept = wrong(cause)
        _upstream_overwritten(facts, kept)
        assert kept[0]["cause"] == cause, (facts, kept)
