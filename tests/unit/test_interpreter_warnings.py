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
