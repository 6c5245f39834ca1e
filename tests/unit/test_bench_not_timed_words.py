"""A benchmark refused because the kernel fails verify says "not timed" once and names the way to see why in
the words of the surface showing it: F6 (Verify) in the app, `tritonlab verify EXERCISE` in the terminal. The app
said "not timed" twice (the error's sentence, then the report's) and "Fix it with `tritonlab verify` first",
a command the app has no place to type."""

from __future__ import annotations

import pytest
from rich.console import Console

pytest.importorskip("textual")  # the GPU image has no textual: the app's half of this test needs it

from tritonlab.app.widgets.bench_panel import report_blocks  # noqa: E402
from tritonlab.present.bench import lines  # noqa: E402
from tritonlab.present.cli import print_bench  # noqa: E402
from tritonlab.present.diagnoses import describe  # noqa: E402

UNWRITTEN = {"kind": "unwritten", "count": 96, "ranges": [[1, 96]], "numel": 97, "runs": 1, "message": "…"}
REFUSED = {
    "exercise": "05-vector-add/add",
    "backend": "interpreter",
    "verified": False,
    "rows": [],
    "verify": {"passed": False, "summary": "6/20 cases pass", "cases": 20},
    "error": {
        "kind": "verify",
        "line": None,
        "message": "not timed: your kernel does not pass verify yet — 6/20 cases pass",
        "case": "n=97 · float32",
        "not_timed": True,
        "diagnosis": UNWRITTEN,
    },
}


def _app_panel(lang: str) -> str:
    """What the bench panel shows: the error's sentence, then the report's blocks."""
    report = "\n".join(line for _, block in report_blocks(REFUSED, lang) for line in block)
    return describe(REFUSED["error"], lang) + "\n" + report


def _terminal(lang: str) -> str:
    console = Console(record=True, width=400)
    print_bench(console, REFUSED, lang)
    return console.export_text()


def test_the_app_names_its_key_and_says_not_timed_once():
    en = _app_panel("en")
    assert en.count("not timed") == 1, en
    assert "F6 (Verify)" in en and "tritonlab verify" not in en, en
    ja = _app_panel("ja")
    assert ja.count("計測していません") == 1, ja
    assert "F6(検証)" in ja and "tritonlab" not in ja, ja


def test_the_terminal_names_the_command_with_the_exercise_and_says_not_timed_once():
    en = _terminal("en")
    assert en.count("not timed") == 1, en
    assert "tritonlab verify 05-vector-add/add" in en and "F6" not in en, en
    ja = _terminal("ja")
    assert ja.count("計測していません") == 1 and "tritonlab verify 05-vector-add/add" in ja, ja


def test_another_error_is_its_own_story():
    """A syntax error met by bench's verify: no 'wrong answers' sentence, no hint, only the heading."""
    crashed = dict(REFUSED, error={"kind": "syntax", "line": 3, "message": "…", "not_timed": True})
    (block,) = report_blocks(crashed, "en")
    assert block == (False, ["05-vector-add/add on the interpreter — verify: failed"])


def test_json_lines_keep_the_not_timed_sentence():
    """`--json`'s English `lines` come without the error's sentence: they still say why nothing was timed."""
    text = " ".join(lines(REFUSED, "en"))
    assert "not timed" in text and "tritonlab verify 05-vector-add/add" in text
