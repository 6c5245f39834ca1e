"""engine/contracts.py on plain data: the checks that need no kernel run."""

from types import SimpleNamespace

import pytest

from tritonlab.engine import contracts


def _exercise(**spec):
    return SimpleNamespace(verify=SimpleNamespace(contracts=spec))


def test_wrapper_without_tile_keywords_keeps_its_own_tiles():
    def no_tiles(a, b, activation=""):
        return a

    def with_tiles(a, b, BLOCK_M=64, BLOCK_N=64):
        return a

    def open_kwargs(a, b, **meta):
        return a

    asked = {"BLOCK_M": 16, "BLOCK_N": 32}
    assert contracts.split_kwargs(no_tiles, asked) == ({}, ["BLOCK_M", "BLOCK_N"])
    assert contracts.split_kwargs(with_tiles, asked) == (asked, [])
    assert contracts.split_kwargs(open_kwargs, asked) == (asked, [])
    assert contracts.split_kwargs(no_tiles, {}) == ({}, [])


def test_programs_contract_counts_the_launched_grid():
    exercise = _exercise(programs="cdiv(n, BLOCK)")
    launch = {"kernel": "k", "grid": [2, 1, 1]}
    facts = contracts.check_case(exercise, {"n": 16, "BLOCK": 16}, {}, {}, None, [launch])
    assert [(f["kind"], f["launched"], f["expected"]) for f in facts] == [("grid-size", 2, 1)]
    assert contracts.check_case(exercise, {"n": 17, "BLOCK": 16}, {}, {}, None, [launch]) == []


@pytest.mark.parametrize(
    "params, programs, pattern",
    [
        ({"n": 16, "BLOCK": 16}, 2, "plus-one"),  # n // BLOCK + 1 on an exact multiple
        ({"n": 15, "BLOCK": 16}, 15, "per-element"),  # grid=(n,)
        ({"n": 1, "BLOCK": 16}, 16, "swapped"),  # triton.cdiv(BLOCK, n)
        ({"n": 15, "BLOCK": 16}, 2, "swapped"),  # cdiv(16, 15) == 2: the swap, not a stray + 1
        ({"n": 17, "BLOCK": 16}, 9, None),  # no rule fits: the counts alone
    ],
)
def test_programs_contract_names_the_over_launch(params, programs, pattern):
    exercise = _exercise(programs="cdiv(n, BLOCK)")
    launch = {"kernel": "k", "grid": [programs, 1, 1]}
    (fact,) = contracts.check_case(exercise, params, {}, {}, None, [launch])
    assert fact["pattern"] == pattern, fact
    assert ("n // BLOCK_SIZE + 1" in fact["message"]) == (pattern == "plus-one"), fact["message"]


def test_knob_must_reach_the_launch_by_keyword_or_position():
    exercise = _exercise(knobs=["BLOCK_SIZE", "num_warps"])
    good = {"kernel": "copy_kernel", "meta": {"BLOCK_SIZE": 128}, "knobs": {"num_warps": 1}}
    assert contracts.check_case(exercise, {}, {"BLOCK_SIZE": 128, "num_warps": 1}, {}, None, [good]) == []
    ignored = {"kernel": "copy_kernel", "meta": {"BLOCK_SIZE": 1024}, "knobs": {}}
    facts = contracts.check_case(exercise, {}, {"BLOCK_SIZE": 128, "num_warps": 1}, {}, None, [ignored])
    assert [(f["kind"], f["name"], f["launched"]) for f in facts] == [
        ("knob-ignored", "BLOCK_SIZE", 1024),
        ("knob-ignored", "num_warps", None),
    ]


def test_unwritten_output_is_explained_from_the_launch():
    def unwritten(ranges):
        return [{"kind": "unwritten", "ranges": ranges, "message": "old"}]

    zero = unwritten([[0, 0]])
    contracts.explain_unwritten(zero, [{"grid": [0, 1, 1]}], 128, (1,))
    assert zero[0]["cause"] == "grid-zero"
    short = unwritten([[896, 1022]])
    contracts.explain_unwritten(short, [{"grid": [7, 1, 1]}], 128, (1023,))
    assert (short[0]["cause"], short[0]["programs"], short[0]["tiles"]) == ("grid-fewer-programs", 7, 8)
    same = unwritten([[16, 16]])
    contracts.explain_unwritten(same, [{"grid": [2, 1, 1]}], 16, (17,))
    assert same[0]["cause"] == "same-block"
    enough = unwritten([[3, 5]])  # enough programs, a hole in the middle: not a grid problem
    contracts.explain_unwritten(enough, [{"grid": [1, 1, 1]}], 16, (10,))
    assert "cause" not in enough[0] and enough[0]["message"] == "old"


def test_a_short_grid_is_called_floor_division_only_when_it_is_one():
    def unwritten():
        return [{"kind": "unwritten", "ranges": [[0, 1]], "message": "old"}]

    tiles = {"BLOCK_M": 16, "BLOCK_N": 16}
    floor_1d = unwritten()  # 1023 // 128 = 7 programs for 8 blocks: floor division
    contracts.explain_unwritten(floor_1d, [{"grid": [7, 1, 1]}], 128, (1023,))
    assert floor_1d[0]["floor"] is True and floor_1d[0]["axis"] is None
    fixed_1d = unwritten()  # 3 programs for 8 blocks: short, but not a floor division
    contracts.explain_unwritten(fixed_1d, [{"grid": [3, 1, 1]}], 128, (1023,))
    assert fixed_1d[0]["floor"] is False
    no_axis_1 = unwritten()  # [20, 40] in 16 x 16 tiles: 2 x 3; the grid gave axis 0 only
    contracts.explain_unwritten(no_axis_1, [{"grid": [2, 1, 1], "meta": tiles}], None, (20, 40))
    assert (no_axis_1[0]["programs"], no_axis_1[0]["tiles"], no_axis_1[0]["axis"]) == (2, 6, 1)
    assert no_axis_1[0]["floor"] is False and "floor division" not in no_axis_1[0]["message"]
    floor_2d = unwritten()  # 20 // 16 = 1 along axis 0, 3 along axis 1: floor division on axis 0
    contracts.explain_unwritten(floor_2d, [{"grid": [1, 3, 1], "meta": tiles}], None, (20, 40))
    assert (floor_2d[0]["axis"], floor_2d[0]["floor"]) == (0, True)
    flat = unwritten()  # a flat (grouped) grid of floor-divided counts: 2 * 2 programs for 3 * 3 tiles
    contracts.explain_unwritten(flat, [{"grid": [4, 1, 1], "meta": tiles}], None, (40, 40))
    assert (flat[0]["floor"], flat[0]["axis"]) == (True, None)


def test_a_flat_launch_over_a_2d_output_is_read_from_the_launch_not_as_rows_or_tiles():
    def tail(start, numel, cause="tiles"):
        return [
            {"kind": "unwritten", "ranges": [[start, numel - 1]], "runs": 1, "cause": cause, "message": "old"}
        ]

    floor = tail(768, 771)  # [3, 257] through 771 // 64 = 12 programs of 64: the last partial block missing
    contracts.explain_unwritten(floor, [{"grid": [12, 1, 1]}], 64, (3, 257))
    assert (floor[0]["cause"], floor[0]["programs"], floor[0]["tiles"], floor[0]["floor"]) == (
        "grid-fewer-programs",
        12,
        13,
        True,
    )
    assert "cdiv" in floor[0]["message"]
    mask = tail(257, 771, "rows-short")  # cdiv(771, 256) = 4 programs, but the mask stops at N = 257
    contracts.explain_unwritten(mask, [{"grid": [4, 1, 1]}], 256, (3, 257))
    assert mask[0]["cause"] == "mask-short" and mask[0]["start"] == 257 and mask[0]["row_length"] == 257
    assert "mask" in mask[0]["message"] and "row axis" not in mask[0]["message"]
    rows = tail(200, 300, "rows-short")  # one program a row (grid == rows): BLOCK_SIZE is a row's, left alone
    contracts.explain_unwritten(rows, [{"grid": [3, 1, 1]}], 128, (3, 100))
    assert rows[0]["cause"] == "rows-short" and rows[0]["message"] == "old"
    tiled = tail(768, 771)  # a 2D tile in meta: the tile rules, not the flat one
    contracts.explain_unwritten(
        tiled, [{"grid": [12, 1, 1], "meta": {"BLOCK_M": 1, "BLOCK_N": 64}}], 64, (3, 257)
    )
    assert tiled[0].get("blocks") == [1, 64]
    hole = [{"kind": "unwritten", "ranges": [[10, 20]], "runs": 1, "cause": "tiles", "message": "old"}]
    contracts.explain_unwritten(hole, [{"grid": [4, 1, 1]}], 256, (3, 257))  # not a tail: left alone
    assert hole[0]["message"] == "old"
    one = tail(128, 771, "one-program")  # the flat reading already named the grid: kept
    contracts.explain_unwritten(one, [{"grid": [1, 1, 1]}], 128, (3, 257))
    assert one[0]["cause"] == "one-program" and one[0]["message"] == "old"


def test_the_tiles_a_transpose_needs_are_counted_over_its_input():
    diag = [{"kind": "unwritten", "ranges": [[0, 1]], "message": "old"}]
    meta = {"BLOCK_M": 64, "BLOCK_N": 16}  # x is [33, 65]: 1 x 5 tiles; its [65, 33] output would give 2 x 3
    contracts.explain_unwritten(diag, [{"grid": [1, 2, 1], "meta": meta}], None, (33, 65))
    assert (diag[0]["programs"], diag[0]["tiles"], diag[0]["axis"]) == (2, 5, 1)


def test_perf_facts_wait_until_the_values_are_right():
    perf = {"kind": "perf-bytes", "moved": 16, "budget": 12}
    cases = [
        {"passed": False, "diagnoses": [dict(perf)]},
        {"passed": False, "diagnoses": [{"kind": "mismatch"}]},
    ]
    contracts.numerics_first(cases, errored=False)
    assert cases[0]["passed"] and cases[0]["diagnoses"] == [] and cases[0]["notes"][0]["deferred"] is True
    alone = [{"passed": False, "diagnoses": [dict(perf)]}]
    contracts.numerics_first(alone, errored=False)
    assert alone[0]["diagnoses"] == [perf] and not alone[0]["passed"]  # values right: the perf verdict stands


def test_a_passing_summary_says_which_tiles_the_lab_could_not_vary():
    from tritonlab.engine.tasks.verify import summarize

    note = contracts.tiles_not_varied(["BLOCK_M", "BLOCK_N"], "matmul")
    result = {
        "passed": True,
        "backend": "interpreter",
        "entry": "matmul",
        "error": None,
        "cases": [{"passed": True, "diagnoses": [], "notes": [note]}, {"passed": True, "diagnoses": []}],
    }
    assert summarize(result) == (
        "all 2 cases pass on the interpreter (BLOCK_M, BLOCK_N not varied: matmul() picks its own tiles)"
    )
    result["cases"][0]["notes"] = []
    assert summarize(result) == "all 2 cases pass on the interpreter"


def test_a_flat_grid_of_a_kernel_that_reads_one_axis_is_not_short_along_axis_1():
    # [17, 33] in 16 x 32 tiles: 2 x 2 = 4 tiles; a flat grid of 2 programs (a hard-coded 32 x 32 tile) for a
    # grouped kernel that reads program_id(0) only: axis 1 was never "missing", the grid ignores meta's tile
    tiles = {"BLOCK_M": 16, "BLOCK_N": 32}
    flat = [{"kind": "unwritten", "ranges": [[0, 1]], "message": "old"}]
    launch = {"grid": [2, 1, 1], "meta": tiles, "pid_axes": 1, "grid_fn": True}
    contracts.explain_unwritten(flat, [launch], None, (17, 33))
    assert (flat[0]["programs"], flat[0]["tiles"], flat[0]["axis"]) == (2, 4, None)
    assert flat[0]["from_meta"] is True and "meta gave 16 x 32" in flat[0]["message"]
    unknown = [{"kind": "unwritten", "ranges": [[0, 1]], "message": "old"}]  # no source read: the old rule
    contracts.explain_unwritten(unknown, [dict(launch, pid_axes=None, grid_fn=False)], None, (17, 33))
    assert unknown[0]["axis"] == 1 and unknown[0]["from_meta"] is False
    assert "meta" not in unknown[0]["message"]
    two_axes = [{"kind": "unwritten", "ranges": [[0, 1]], "message": "old"}]  # reads axis 1 on a 1D grid
    contracts.explain_unwritten(two_axes, [dict(launch, pid_axes=2, grid_fn=False)], None, (17, 33))
    assert two_axes[0]["cause"] == "grid-axis-missing" and "program_id(1)" in two_axes[0]["message"]
    unread = [{"kind": "unwritten", "ranges": [[0, 1]], "message": "old"}]  # a 2D grid, axis 1 never read
    contracts.explain_unwritten(unread, [dict(launch, grid=[2, 2, 1], pid_axes=1)], None, (17, 33))
    assert unread[0]["cause"] == "grid-axes-unread" and "2 x 2" in unread[0]["message"]


def test_lab_directives_never_reach_the_wrapper():
    wrapper_kwargs, lab = contracts.directives({"BLOCK_M": 16, "@autotune": "smallest"})
    assert wrapper_kwargs == {"BLOCK_M": 16} and lab == {"autotune": "smallest"}
    assert contracts.directives({}) == ({}, {})


def _module_with_autotuner(configs_function):
    import triton
    import triton.language as tl

    @triton.jit
    def kernel(x_ptr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
        pass

    tuner = triton.autotune(configs=[triton.Config({"BLOCK_M": 32, "BLOCK_N": 32})], key=[])(kernel)
    return SimpleNamespace(kernel=tuner, get_autotune_configs=configs_function), tuner


def test_pinned_autotune_picks_the_files_gpu_tile_and_restores_the_tuner():
    import triton

    def configs():
        return [
            triton.Config({"BLOCK_M": 128, "BLOCK_N": 256}),
            triton.Config({"BLOCK_M": 16, "BLOCK_N": 32}),
            triton.Config({"BLOCK_M": 64, "BLOCK_N": 128}),
        ]

    module, tuner = _module_with_autotuner(configs)
    exercise = SimpleNamespace(
        verify=SimpleNamespace(contracts={"autotune": {"configs_function": "get_autotune_configs"}})
    )
    before = list(tuner.configs)
    kept = {k: vars(tuner).get(k) for k in ("_do_bench", "early_config_prune", "perf_model")}
    with contracts.pinned_autotune(exercise, module, "smallest") as pinned:
        # the pinned tile and its twin: the autotuner times both (one run each) before the real launch
        assert pinned == {"BLOCK_M": 16, "BLOCK_N": 32} and [c.kwargs for c in tuner.configs] == [pinned] * 2
        assert tuner.configs[0] is not tuner.configs[1] and tuner.early_config_prune is None
        calls = []
        assert tuner._do_bench(lambda: calls.append(1), quantiles=(0.5, 0.2, 0.8)) == [1.0, 1.0, 1.0]
        assert calls == [1] and pinned["@benched"] == 1
    assert tuner.configs == before
    assert {k: vars(tuner).get(k) for k in kept} == kept
    with contracts.pinned_autotune(exercise, module, "largest") as pinned:
        assert pinned == {"BLOCK_M": 128, "BLOCK_N": 256}
    with contracts.pinned_autotune(exercise, module, None) as pinned:  # no directive: the file's own configs
        assert pinned is None and tuner.configs == before
    broken, tuner2 = _module_with_autotuner(lambda: 1 / 0)  # the learner's function raises: nothing pinned
    with contracts.pinned_autotune(exercise, broken, "smallest") as pinned:
        assert pinned is None and len(tuner2.configs) == 1


def test_row_contracts_edit_row_0_of_the_named_input_only():
    import torch

    x = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    ids = torch.arange(6).reshape(3, 2)
    inputs = {"x": x.clone(), "ids": ids.clone()}
    contracts.prepare_inputs(_exercise(low_row="x", high_row="ids"), inputs)
    assert torch.equal(inputs["x"][0], x[0] / 100 - 120) and torch.equal(inputs["x"][1:], x[1:])
    assert torch.equal(inputs["ids"], ids)  # integer ids are never shifted
    inputs = {"x": x.clone()}
    contracts.prepare_inputs(_exercise(high_row="x"), inputs)
    assert torch.equal(inputs["x"][0], x[0] + 100) and torch.equal(inputs["x"][1:], x[1:])
    inputs = {"x": x.clone()}
    contracts.prepare_inputs(_exercise(zero_row="x"), inputs)
    assert not inputs["x"][0].any() and torch.equal(inputs["x"][1:], x[1:])
    inputs = {"x": x.clone()}
    contracts.prepare_inputs(_exercise(), inputs)
    assert torch.equal(inputs["x"], x)


LAUNCH_OPTION_KERNELS = """
import triton
import triton.language as tl


@triton.jit
def swallowed(x_ptr, n, BLOCK: tl.constexpr, num_warps: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n), mask=offs < n)


@triton.jit
def pipelined(x_ptr, n_rows, BLOCK: tl.constexpr, num_stages: tl.constexpr):
    for row in tl.range(tl.program_id(0), n_rows, 1, num_stages=num_stages):
        offs = row * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs))
"""


def test_a_launch_option_parameter_is_flagged_only_when_the_kernel_never_reads_it(tmp_path):
    """num_warps swallowed by an unused parameter fails (a sweep of it times one kernel); the official persistent
    softmax's num_stages parameter, read by its tl.range, is deliberate (a false fail on the H200, tenth session)."""
    from tritonlab.engine.learner import load_module

    path = tmp_path / "kernels_with_options.py"
    path.write_text(LAUNCH_OPTION_KERNELS)
    facts = contracts.check_file(_exercise(), load_module(path))
    assert [(f["kind"], f["kernel"], f["name"]) for f in facts] == [
        ("launch-option-param", "swallowed", "num_warps")
    ]
    assert facts[0]["line"] == 6


def test_a_stored_transpose_is_read_from_the_store_or_the_name_it_stores(tmp_path):
    from tritonlab.engine.contracts import _stored_transpose

    src = tmp_path / "k.py"
    src.write_text(
        "def k(out_ptrs, tile, mask):\n"
        "    tl.store(out_ptrs, tl.trans(tile), mask=mask)\n"
        "    t = tile.T\n"
        "    tl.store(\n"
        "        out_ptrs,\n"
        "        t,\n"
        "        mask=mask,\n"
        "    )\n"
        "    tl.store(out_ptrs, tile, mask=mask)\n"
    )
    assert _stored_transpose(str(src), 2) == "tl.trans(tile)"
    assert _stored_transpose(str(src), 6) == "t = tile.T"  # a store spread over lines, its value a name
    assert _stored_transpose(str(src), 9) is None  # an untransposed tile: the old advice stands


def _api_missing_of(tmp_path, source: str) -> list:
    import importlib.util

    path = tmp_path / "learner_api.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("learner_api", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return contracts._api_missing(module, ["make_tensor_descriptor", "TensorDescriptor"])


@pytest.mark.parametrize(
    "source",
    [
        "import types\ntl = types.SimpleNamespace()\n"
        "make = getattr(tl, 'make_tensor_descriptor', None) or getattr(tl, 'x', None)\n"
        "def kernel(a):\n    return make(a)\n",
        "import types\ntl = types.SimpleNamespace(_experimental_make_tensor_descriptor=len)\n"
        "make = tl._experimental_make_tensor_descriptor\ndef kernel(a):\n    return make(a)\n",
        "from types import SimpleNamespace as TensorDescriptor\nTD = TensorDescriptor\n"
        "def wrapper(a):\n    return TD(a=a)\n",
    ],
    ids=["getattr-string", "experimental-prefix", "import-alias"],
)
def test_api_missing_reads_a_version_compatible_lookup(tmp_path, source):
    """Lesson 13's API looked up for Triton 3.3 and 3.4+ (probe round 10): the file does use it."""
    assert _api_missing_of(tmp_path, source) == []


@pytest.mark.parametrize(
    "source",
    [
        "import types\ntl = types.SimpleNamespace()\nprobe = getattr(tl, 'make_tensor_descriptor', None)\n",
        "import types\nsettings = types.SimpleNamespace()\nsettings._use_make_tensor_descriptor = False\n",
    ],
    ids=["unused-lookup", "flag-named-after-it"],
)
def test_api_missing_wants_a_call_not_a_mention(tmp_path, source):
    """Probe round 11: a pointer GEMM beside an unused getattr lookup, or a flag named after the API, passed."""
    assert [f["kind"] for f in _api_missing_of(tmp_path, source)] == ["api-missing"]


def test_api_missing_is_not_fooled_by_a_function_of_the_learners_own(tmp_path):
    """The false-pass side: a plain function whose name ends with the API's (pointer arithmetic inside) is not
    the API, and a string outside getattr is no lookup."""
    source = (
        "def my_make_tensor_descriptor(ptr):\n    return ptr\n\n"
        "NOTE = 'make_tensor_descriptor'\nx = my_make_tensor_descriptor(3)\n"
    )
    found = _api_missing_of(tmp_path, source)
    assert [f["kind"] for f in found] == ["api-missing"]


PID_LOOP = """
import triton.language as tl


def kernel(x_ptr, r_ptr, out_ptr, M, N):
    pid = tl.program_id(0)
    for row in range(pid, M, tl.num_programs(0)):
        start = row * N
        x = tl.load(x_ptr + start)
        r = tl.load(r_ptr + {index})
        tl.store(out_ptr + start, x * r)
    tl.load(r_ptr + pid)  # outside the loop: the program's own value, fine
"""


@pytest.mark.parametrize("index, flagged", [("pid", True), ("row", False), ("start // N", False)])
def test_a_load_by_program_id_inside_the_row_loop_is_found(tmp_path, index, flagged):
    """Probe round 9: `tl.load(rstd_ptr + pid)` in `for row in range(pid, M, P)`; a load by the row, or by a
    name the loop makes from it, is not."""
    from tritonlab.engine.tasks.verify import _pid_load_in_row_loop

    path = tmp_path / "pid_loop.py"
    path.write_text(PID_LOOP.format(index=index))
    found = _pid_load_in_row_loop(str(path))
    if flagged:
        assert found == {"line": 10, "load": "tl.load(r_ptr + pid)", "var": "row", "pid": "pid"}
    else:
        assert found is None


LOCAL_INDEX = """
import triton.language as tl


def kernel(q_ptr, seq_len, BLOCK_M, BLOCK_N):
    start_m = tl.program_id(0)
    offs_m = tl.arange(0, BLOCK_M)
    q_rows = start_m * BLOCK_M + offs_m
    offs_n = tl.arange(0, BLOCK_N)
    for start_n in range(0, seq_len, BLOCK_N):
        cols = start_n + offs_n
        keep = {compare}
        tail = offs_n < seq_len - start_n   # block-local against a scalar: fine
"""


@pytest.mark.parametrize(
    "compare, flagged",
    [
        ("offs_m[:, None] >= cols[None, :]", True),
        ("q_rows[:, None] >= cols[None, :]", False),
        ("offs_m[:, None] >= offs_n[None, :]", False),  # two block-local indices: one block's own triangle
    ],
)
def test_a_block_local_index_compared_with_a_position_is_found(tmp_path, compare, flagged):
    """Probe round 9: the causal mask compared the block-local offs_m with the keys' positions while q_rows,
    the rows' positions, was there to use."""
    from tritonlab.engine.tasks.verify import _local_index_compared

    path = tmp_path / "local_index.py"
    path.write_text(LOCAL_INDEX.format(compare=compare))
    found = _local_index_compared(str(path))
    if flagged:
        assert found == {
            "line": 12,
            "local": "offs_m",
            "position": "cols",
            "instead": "q_rows",
            "instead_line": 8,
        }
    else:
        assert found is None
