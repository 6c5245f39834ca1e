"""Warnings raised inside Triton's own code (the interpreter's numpy) are recorded with the learner's running
line and kept out of "your program printed" (probe 15c-6); a cast to int64 after the product is named at its
line in the int32-wrap report (`report._late_int64_cast`)."""

from __future__ import annotations

import os
import warnings

import triton

from tritonlab.engine.memcheck.report import OutOfBounds, _late_int64_cast
from tritonlab.engine.tasks.verify_runner import _triton_warnings
from tritonlab.present.diagnoses import describe
from tritonlab.present.verify import interpreter_warnings

LATE = """
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, stride_row):
    row = tl.program_id(0)
    start = x_ptr + (row * stride_row).to(tl.int64)
    tl.load(start)
"""

EARLY = LATE.replace("(row * stride_row).to(tl.int64)", "row.to(tl.int64) * stride_row")


def test_a_cast_after_the_product_is_found_and_one_before_is_not(tmp_path):
    late, early = tmp_path / "late.py", tmp_path / "early.py"
    late.write_text(LATE)
    early.write_text(EARLY)
    assert _late_int64_cast(str(late)) == (9, "(row * stride_row).to(tl.int64)", "row * stride_row")
    assert _late_int64_cast(str(early)) is None


def test_the_wrap_report_names_the_late_cast_in_both_languages(tmp_path):
    late = tmp_path / "late.py"
    late.write_text(LATE)
    oob = OutOfBounds(
        access="load",
        kernel="k",
        arg="x_ptr",
        program_id=(2, 0, 0),
        lanes=4,
        offsets=[-(2**31)],
        span=(-(2**31), -(2**31) + 3),
        extent=3 * 2**30,
        shape=(3, 2**30),
        strides=(2**30, 1),
        file=str(late),
        line=10,
        reason="before_start",
    )
    assert "the .to(tl.int64) at line 9" in oob.message and "cast before multiplying" in oob.message
    err = {"kind": "oob", "message": oob.message, "line": 10, "detail": oob.to_dict()}
    assert "line 9" in describe(err, "en") and "9 行目の .to(tl.int64)" in describe(err, "ja")


def test_a_warning_from_tritons_code_is_recorded_with_the_learners_line(tmp_path):
    learner = str(tmp_path / "learner.py")
    inside = os.path.join(os.path.dirname(triton.__file__), "runtime", "interpreter.py")
    code = compile("def kernel(warn):\n    warn()\n", learner, "exec")
    scope: dict = {}
    exec(code, scope)
    found: list = []
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        with _triton_warnings(learner, found):
            scope["kernel"](
                lambda: warnings.warn_explicit("overflow encountered in cast", RuntimeWarning, inside, 565)
            )
    assert found == [{"category": "RuntimeWarning", "message": "overflow encountered in cast", "line": 2}]
    lines = interpreter_warnings([{"interpreter_warnings": found}, {"interpreter_warnings": found}], "en")
    assert lines == ["  line 2: RuntimeWarning: overflow encountered in cast"]
    assert interpreter_warnings([{"interpreter_warnings": found}], "ja")[0].startswith("  2 行目: ")


def test_a_warning_from_elsewhere_is_left_to_python(tmp_path):
    found: list = []
    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        with _triton_warnings(str(tmp_path / "learner.py"), found):
            warnings.warn_explicit("mine", UserWarning, str(tmp_path / "learner.py"), 3)
    assert found == [] and [str(w.message) for w in shown] == ["mine"]


GROUPED = """
import triton
import triton.language as tl


@triton.jit
def k(M, BLOCK_M: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(0)
    num_pid_m = M // BLOCK_M
    group_size_m = min(num_pid_m, GROUP_M)
    pid_m = pid % group_size_m
"""


def test_an_integer_division_by_zero_is_followed_to_its_floor_division(tmp_path):
    from tritonlab.engine.tasks.verify import _zero_division

    path = tmp_path / "grouped.py"
    path.write_text(GROUPED)
    warned = [{"category": "RuntimeWarning", "message": "divide by zero encountered in fmod", "line": 11}]
    diag = {"kind": "unwritten", "cause": "tile-map", "count": 3, "message": "m"}
    _zero_division([diag], warned, str(path))
    assert diag["zero_division"] == {
        "line": 11,
        "op": "%",
        "divisor": "group_size_m",
        "floor": "num_pid_m = M // BLOCK_M",
        "floor_line": 9,
    }, diag
    assert diag["line"] == 9 and "divided an integer by zero at line 11" in diag["message"]
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert en.startswith("in this case your kernel divided an integer by zero at line 11"), en
    assert ja.startswith("このケースではカーネルが 11 行目で整数を 0 で割っています"), ja


def test_a_float_division_by_zero_or_no_warning_adds_nothing(tmp_path):
    from tritonlab.engine.tasks.verify import _zero_division

    path = tmp_path / "grouped.py"
    path.write_text(GROUPED)
    for warned in ([{"message": "divide by zero encountered in divide", "line": 11}], [], None):
        diag = {"kind": "unwritten", "cause": "tile-map", "count": 3, "message": "m"}
        _zero_division([diag], warned, str(path))
        assert "zero_division" not in diag and "line" not in diag, diag


GROUP_INDEX = """
import triton
import triton.language as tl


@triton.jit
def tile_coords(tile_id, num_pid_m, GROUP_M: tl.constexpr):
    num_pid_in_group = GROUP_M * num_pid_m
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + (tile_id % num_pid_in_group) % group_size_m
"""


def test_a_divisor_behind_a_group_index_is_not_called_a_floor_count(tmp_path):
    # probe round 16c: `tile_id // num_pid_in_group` is a group index, not a block count — no tl.cdiv advice;
    # the fact says where the divisor was computed instead
    from tritonlab.engine.tasks.verify import _zero_division

    path = tmp_path / "group.py"
    path.write_text(GROUP_INDEX)
    warned = [{"category": "RuntimeWarning", "message": "divide by zero encountered in fmod", "line": 12}]
    diag = {"kind": "unwritten", "cause": "tile-id-map", "count": 3, "message": "m", "line": 40}
    _zero_division([diag], warned, str(path))
    assert diag["zero_division"] == {
        "line": 12,
        "op": "%",
        "divisor": "group_size_m",
        "made": "group_size_m = min(num_pid_m - first_pid_m, GROUP_M)",
        "made_line": 11,
    }, diag
    assert diag["line"] == 40 and "tl.cdiv" not in diag["message"], diag
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "tl.cdiv" not in en and "floor division" not in en, en
    assert "group_size_m is computed at line 11" in en, en
    assert "tl.cdiv" not in ja and "11 行目" in ja, ja


def test_a_floor_count_is_a_division_by_a_block_size():
    import ast

    from tritonlab.engine.tasks.verify import _floor_count

    def expr(text: str) -> ast.AST:
        return ast.parse(text, mode="eval").body

    for text in ("M // BLOCK_M", "(M + 1) // BM", "N // 64", "K // meta.BLOCK_K"):
        assert _floor_count(expr(text), {"BM"}), text
    for text in ("tile_id // num_pid_in_group", "M // 1", "M // n", "M % BLOCK_M", "M / BLOCK_M"):
        assert not _floor_count(expr(text), {"BM"}), text
