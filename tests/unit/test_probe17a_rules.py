"""Rules added for probe round 17a (tests/integration/probe_round17_a/README.md, findings 1, 2, 3 and 7), each
tested both ways: the slip gets its cause and line, a right or differently wrong file does not.

- contracts.explain_unwritten: `grid-axis-missing` only where the output needs more than one program along
  that axis; `arange-block` for offsets that step by one block and take another, smaller one's lanes.
- memcheck.report._mask_facts: `or_joined` (bounds joined with `|`), and a mask name assigned a comparison
  (`col_mask = cols < n_cols`) bounds the names in it.
- verify._launch_order: an input written because the launch swapped it with the output (`launch-order`).
- contracts.check_let_through: a reject case that reached the kernel past a check joined with the wrong
  `and`/`or` names that check."""

from __future__ import annotations

import linecache
from pathlib import Path
from types import SimpleNamespace

import pytest

from tritonlab.engine import contracts
from tritonlab.engine.memcheck.report import OutOfBounds, _mask_facts
from tritonlab.engine.tasks.verify import _launch_order, _output_passed_as, judge_reject
from tritonlab.present.diagnoses import describe


def write(tmp_path: Path, source: str, name: str = "k") -> str:
    path = tmp_path / f"{name}{abs(hash(source))}.py"
    path.write_text(source)
    linecache.checkcache(str(path))
    return str(path)


def line_of(file: str, marker: str) -> int:
    return next(i for i, text in enumerate(Path(file).read_text().splitlines(), 1) if marker in text)


# --- finding 1: an axis of one program that needs no more is not missing ------------------------------------

COPY_2D = """
def copy_2d_kernel(x_ptr, output_ptr, n_rows, n_cols, stride_xm, stride_xn, BLOCK_M, BLOCK_N):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = COLS
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    tl.store(output_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, tile, mask=mask)
"""

TILE = {"BLOCK_M": 16, "BLOCK_N": 128}


def unwritten(rows: list, cols: list, count: int) -> list[dict]:
    return [
        {"kind": "unwritten", "count": count, "rows": rows, "cols": cols, "cause": "tiles", "message": "m"}
    ]


def launch(file: str, grid: list[int], pid_axes: int = 2) -> dict:
    return {
        "kernel": "copy_2d_kernel",
        "file": file,
        "grid": grid,
        "meta": dict(TILE),
        "pid_axes": pid_axes,
        "grid_fn": True,
    }


def test_cols_of_block_m_lanes_are_named_at_their_line_not_a_missing_axis(tmp_path):
    file = write(tmp_path, COPY_2D.replace("COLS", "pid_n * BLOCK_N + tl.arange(0, BLOCK_M)"))
    # M=33, N=65 in 16 x 128 tiles: grid (3, 1) — axis 1 has the one program N=65 needs; columns 16..64 unwritten
    diags = unwritten([[0, 32]], [[16, 64]], 33 * 49)
    contracts.explain_unwritten(diags, [launch(file, [3, 1, 1])], None, (33, 65))
    d = diags[0]
    assert d["cause"] == "arange-block" and d["line"] == line_of(file, "cols = pid_n"), d
    assert (d["step_name"], d["step"], d["lanes_name"], d["lanes"], d["axis"]) == (
        "BLOCK_N",
        128,
        "BLOCK_M",
        16,
        1,
    )
    assert "has no axis" not in d["message"] and "tl.arange(0, BLOCK_N)" in d["message"], d["message"]
    en, ja = describe(d, "en"), describe(d, "ja")
    assert "first 16 of its 128 columns" in en and f"line {d['line']}" in en, en
    assert "128 列のうち先頭の 16 列" in ja and f"{d['line']} 行目" in ja, ja
    # N=300: three column tiles, each with columns 16..127 of its 128 unwritten (the last one cut at 299)
    wide = unwritten([[0, 19]], [[16, 127], [144, 255], [272, 299]], 20 * 252)
    contracts.explain_unwritten(wide, [launch(file, [2, 3, 1])], None, (20, 300))
    assert wide[0]["cause"] == "arange-block", wide[0]


def test_a_start_named_on_its_own_line_is_followed(tmp_path):
    source = COPY_2D.replace(
        "    cols = COLS\n", "    start_n = pid_n * BLOCK_N\n    cols = start_n + tl.arange(0, BLOCK_M)\n"
    )
    file = write(tmp_path, source)
    found = contracts.arange_block_starts(file, "copy_2d_kernel")
    assert [(f["name"], f["lanes"], "BLOCK_N" in f["steps"]) for f in found] == [("cols", "BLOCK_M", True)], (
        found
    )


@pytest.mark.parametrize(
    "cols, rows, cols_unwritten",
    [
        ("pid_n * BLOCK_N + tl.arange(0, BLOCK_N)", [[0, 32]], [[16, 64]]),  # right offsets: another slip
        (
            "pid_n * BLOCK_N + tl.arange(0, BLOCK_M)",
            [[0, 15]],
            [[16, 64]],
        ),  # rows short too: not the gaps alone
        ("pid_n * BLOCK_N + tl.arange(0, BLOCK_M)", [[0, 32]], [[20, 64]]),  # not the gap the lanes leave
        (
            "pid_n * BLOCK_N + tl.arange(0, BLOCK_M)",
            [[0, 32]],
            [[16, 127]],
        ),  # one gap where N=300 leaves three
    ],
)
def test_other_unwritten_patterns_are_not_called_arange_block(tmp_path, cols, rows, cols_unwritten):
    file = write(tmp_path, COPY_2D.replace("COLS", cols))
    diags = unwritten(rows, cols_unwritten, 100)
    wide = cols_unwritten == [[16, 127]]
    contracts.explain_unwritten(
        diags, [launch(file, [3, 3 if wide else 1, 1])], None, (33, 300 if wide else 65)
    )
    assert diags[0].get("cause") != "arange-block", diags[0]
    assert diags[0].get("cause") != "grid-axis-missing", diags[0]  # axis 1 has the one program it needs


def test_an_axis_that_needs_more_programs_is_still_missing(tmp_path):
    file = write(tmp_path, COPY_2D.replace("COLS", "pid_n * BLOCK_N + tl.arange(0, BLOCK_N)"))
    # N=300 needs 3 column tiles of 128, the grid (3,) launched one: tl.program_id(1) is always 0
    diags = unwritten([[0, 32]], [[128, 299]], 33 * 172)
    contracts.explain_unwritten(diags, [launch(file, [3, 1, 1])], None, (33, 300))
    d = diags[0]
    assert (d["cause"], d["axis"], d["tiles_along"]) == ("grid-axis-missing", 1, 3), d
    en, ja = describe(d, "en"), describe(d, "ja")
    assert "the grid is 3 × 1: one program along axis 1" in en and "3 tiles along it" in en, en
    assert "グリッドは 3 × 1 で、軸 1 方向には 1 プログラムしかない" in ja and "(3,)" not in ja, ja
    # a 1-D output read through tl.program_id(1): no tile to count, the old rule stands
    flat = [{"kind": "unwritten", "count": 10, "ranges": [[128, 137]], "message": "m"}]
    contracts.explain_unwritten(flat, [dict(launch(file, [1, 1, 1]), meta={})], 128, (138,))
    assert flat[0]["cause"] == "grid-axis-missing" and "tiles_along" not in flat[0], flat[0]
    assert "軸 1 方向には 1 プログラム" in describe(flat[0], "ja")


# --- finding 3: a mask joined with | -------------------------------------------------------------------------

BIAS = """
def bias_add_kernel(x_ptr, n_rows, n_cols, stride_xm, stride_xn, BLOCK_M, BLOCK_N):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < n_cols
    mask = MASK
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
"""


def bias_facts(tmp_path: Path, mask: str) -> tuple[dict, str]:
    file = write(tmp_path, BIAS.replace("MASK", mask))
    line = line_of(file, "x = tl.load")
    return _mask_facts(linecache.getline(file, line).strip(), file, line), file


def test_an_or_joined_mask_is_named_with_its_line_and_the_and_form(tmp_path):
    facts, file = bias_facts(tmp_path, "(rows[:, None] < n_rows) | col_mask[None, :]")
    joined = facts["or_joined"]
    assert (
        joined["line"] == line_of(file, "mask = (")
        and joined["fixed"] == "(rows[:, None] < n_rows) & col_mask[None, :]"
    )
    assert facts["unbounded"] == [] and facts["bounded"] is False, facts
    line = line_of(file, "x = tl.load")
    oob = OutOfBounds(
        access="load",
        kernel="bias_add_kernel",
        arg="x_ptr",
        program_id=(0, 0, 0),
        lanes=63,
        offsets=[1, 2],
        extent=1,
        file=file,
        line=line,
        code=linecache.getline(file, line).strip(),
        shape=(1, 1),
        strides=(1, 1),
    )
    assert "never bounds" not in oob.message and "join them with &" in oob.message, oob.message
    error = {"kind": "oob", "detail": oob.to_dict()}
    en, ja = describe(error, "en"), describe(error, "ja")
    assert "joins its bounds with |" in en and "never bounds" not in en, en
    assert "& でつないでください" in ja and "制限していません" not in ja, ja


@pytest.mark.parametrize(
    "mask, unbounded",
    [
        ("(rows[:, None] < n_rows) & col_mask[None, :]", []),  # the right mask: col_mask bounds cols
        ("rows[:, None] < n_rows", ["cols"]),  # cols really unbounded: still said
        ("(rows[:, None] < n_rows) | (rows[:, None] == 0)", ["cols"]),  # | over one index: not or_joined
    ],
)
def test_other_masks_are_not_called_or_joined(tmp_path, mask, unbounded):
    facts, _ = bias_facts(tmp_path, mask)
    assert "or_joined" not in facts, facts
    assert [u["name"] for u in facts["unbounded"]] == unbounded, facts


# --- finding 2: the launch passes the output and an input in swapped places ---------------------------------

ADD = """
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE):
    pass


def add(x, y):
    output = torch.empty_like(x)
    add_kernel[grid](LAUNCH, n_elements, BLOCK_SIZE=1024)
    return output
"""


def bindings(line: int, y_as: str, out_as: str) -> dict:
    return {
        "inputs": {"y": [{"launch": 0, "kernel": "add_kernel", "arg": y_as, "line": line}]},
        "output": [{"launch": 0, "kernel": "add_kernel", "arg": out_as, "line": line}],
    }


def modified() -> list[dict]:
    return [
        {"kind": "input-modified", "arg": "y", "changed": 1, "message": "m"},
        {"kind": "unwritten", "cause": "none-written", "count": 1, "numel": 1, "message": "m"},
    ]


def test_a_swapped_launch_is_named_at_its_line(tmp_path):
    file = write(tmp_path, ADD.replace("LAUNCH", "x, output, y"))
    line = line_of(file, "add_kernel[grid]")
    diags = modified()
    _launch_order(diags, bindings(line, "output_ptr", "y_ptr"), file)
    _output_passed_as(diags)
    d = diags[0]
    assert (d["cause"], d["line"], d["param"], d["output_param"]) == (
        "launch-order",
        line,
        "output_ptr",
        "y_ptr",
    )
    assert "store into the output instead" not in d["message"] and "output as output_ptr" in d["message"]
    en, ja = describe(d, "en"), describe(d, "ja")
    assert f"the launch at line {line} passes «y» as output_ptr and «output» as y_ptr" in en, en
    assert f"{line} 行目の起動は output_ptr に «y»、y_ptr に «output» を渡しています" in ja, ja
    assert diags[1]["cause"] == "none-written" and diags[1]["launch_order"]["output_param"] == "y_ptr"
    assert "y_ptr" in describe(diags[1], "en") and "check the tl.store pointer" not in describe(
        diags[1], "en"
    )
    assert "y_ptr として渡していて" in describe(diags[1], "ja")


def test_a_kernel_storing_through_the_input_pointer_is_not_a_launch_order(tmp_path):
    # the launch is right (x, y, output); the kernel stores through y_ptr: y is passed as y_ptr
    file = write(tmp_path, ADD.replace("LAUNCH", "x, y, output"))
    line = line_of(file, "add_kernel[grid]")
    diags = modified()
    _launch_order(diags, bindings(line, "y_ptr", "output_ptr"), file)
    _output_passed_as(diags)
    assert "cause" not in diags[0] and "launch_order" not in diags[1], diags
    assert "store into the output instead" in describe(diags[0], "en")


def test_a_swap_of_two_inputs_is_not_called_a_swap_with_the_output(tmp_path):
    # (y, x, output): y written? no — here the output went to output_ptr, so no output/input swap to name
    file = write(tmp_path, ADD.replace("LAUNCH", "y, x, output"))
    line = line_of(file, "add_kernel[grid]")
    diags = modified()
    _launch_order(diags, bindings(line, "x_ptr", "output_ptr"), file)
    assert "cause" not in diags[0], diags[0]


# --- finding 7: a reject case past a check joined with the wrong and/or -------------------------------------

WRAPPER = """
def add(x, y):
    if x.device != y.device:
        raise ValueError("devices")
    CHECK
        raise ValueError("not contiguous")
    output = torch.empty_like(x)
    add_kernel[grid](x, y, output, n, BLOCK_SIZE=1024)
    return output
"""

STRIDED = {"shape": [8, 16], "dtype": "float32", "device": "cpu", "strides": [20, 1]}
PLAIN = {"shape": [8, 16], "dtype": "float32", "device": "cpu"}


def test_an_or_contiguity_check_is_named_where_one_input_is_strided(tmp_path):
    file = write(tmp_path, WRAPPER.replace("CHECK", "if not (x.is_contiguous() or y.is_contiguous()):"))
    let = contracts.check_let_through(file, "add", {"x": PLAIN, "y": STRIDED})
    assert let is not None and let["line"] == line_of(file, "is_contiguous() or"), let
    assert let["op"] == "or" and let["fixed"] == "not (x.is_contiguous() and y.is_contiguous())", let
    assert [p["value"] for p in let["parts"]] == [True, False], let
    reject = SimpleNamespace(name="non-contiguous input", why={"en": "y is strided", "ja": "y は飛び飛び"})
    error = {
        "kind": "oob",
        "line": 17,
        "message": "load from y_ptr outside the view in program 0: … — step through it with the tensor's strides",
    }
    facts = {
        "raised": "OutOfBounds: …",
        "launched": True,
        "error": error,
        "input_facts": {"x": PLAIN, "y": STRIDED},
    }
    d = judge_reject(reject, facts, file, ["ValueError"], "add")["diagnoses"][0]
    assert (d["cause"], d["line"]) == ("failed-in-kernel", let["line"]), d
    assert "step through it" not in d["message"] and "join them with `and`" in d["message"], d["message"]
    en, ja = describe(d, "en"), describe(d, "ja")
    assert f"past your check at line {let['line']}" in en and "join them with `and`" in en, en
    assert f"{let['line']} 行目のチェック" in ja and "`and` でつないでください" in ja, ja


@pytest.mark.parametrize(
    "check, tensors",
    [
        ("if not (x.is_contiguous() and y.is_contiguous()):", {"x": PLAIN, "y": STRIDED}),  # right: it raises
        ("if not x.is_contiguous():", {"x": PLAIN, "y": STRIDED}),  # checks x alone: another slip
        ("if not x.is_contiguous or not y.is_contiguous:", {"x": PLAIN, "y": STRIDED}),  # not called
        ("if not (x.is_contiguous() or y.is_contiguous()):", {"x": STRIDED, "y": STRIDED}),  # both: it raises
    ],
)
def test_other_checks_are_not_named_as_a_wrong_or(tmp_path, check, tensors):
    file = write(tmp_path, WRAPPER.replace("CHECK", check))
    assert contracts.check_let_through(file, "add", tensors) is None


def test_a_reassigned_input_is_not_judged_from_the_case_facts(tmp_path):
    source = WRAPPER.replace(
        "    CHECK\n", "    y = y.contiguous()\n    if not (x.is_contiguous() or y.is_contiguous()):\n"
    )
    file = write(tmp_path, source)
    assert contracts.check_let_through(file, "add", {"x": PLAIN, "y": STRIDED}) is None


def test_without_such_a_check_the_kernel_error_is_quoted_without_its_fix(tmp_path):
    file = write(tmp_path, WRAPPER.replace("CHECK", "if False:"))
    reject = SimpleNamespace(name="non-contiguous input", why={"en": "y is strided", "ja": "y は飛び飛び"})
    facts = {
        "raised": "OutOfBounds: …",
        "launched": True,
        "error": {"kind": "oob", "line": 17, "message": "load from y_ptr outside the view — step through it"},
        "input_facts": {"x": PLAIN, "y": STRIDED},
    }
    d = judge_reject(reject, facts, file, ["ValueError"], "add")["diagnoses"][0]
    assert d["cause"] == "failed-in-kernel" and "line" not in d, d
    assert "load from y_ptr outside the view" in d["message"] and "step through" not in d["message"], d


def test_a_grid_counted_by_the_lanes_block_blames_the_step_not_the_arange():
    """`rows = pid_m * BLOCK_N + tl.arange(0, BLOCK_M)` under a grid of cdiv(M, BLOCK_M) (probe round 13): the
    step is the slip, so `arange-block` ("take tl.arange(0, BLOCK_N)") is not said; under a grid of
    cdiv(N, BLOCK_N) (round 17a's columns) the arange is, and it is."""
    from tritonlab.engine.contracts import _grid_sized_by_lanes

    assert _grid_sized_by_lanes([5, 3, 1], 0, 65, 32, 16) is True  # cdiv(65, 16) = 5: by the lanes
    assert _grid_sized_by_lanes([3, 2, 1], 1, 65, 64, 32) is False  # axis 1: cdiv(65, 64) = 2, by the step
    assert _grid_sized_by_lanes([3, 2, 1], 0, 65, 64, 32) is True  # axis 0 holds cdiv(65, 32) = 3
    assert _grid_sized_by_lanes(None, 0, 65, 32, 16) is False
