"""`tritonlab --lang ja …` refuses a wrong command line in Japanese: an unknown lesson or exercise (it printed
"エラー: «no lesson '99' …»", the English sentence quoted) and argparse's own refusals (a bad choice, a missing
argument, a value that is not a number), which argparse writes in English only. English is unchanged."""

from __future__ import annotations

import pytest

from tritonlab import cli
from tritonlab.present.usage import argparse_message


def _refused(capsys, argv: list[str]) -> str:
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2, argv
    return capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--lang", "ja", "open", "99"], "エラー: レッスン '99' はありません(レッスン: 1, 2, 3,"),
        (
            ["verify", "5/zz", "--lang", "ja"],
            "エラー: レッスン 05-vector-add に演習 'zz' はありません(演習: add,",
        ),
        (["--lang", "ja", "quiz", "99"], "エラー: レッスン '99' はありません(レッスン: 1,"),
    ],
)
def test_an_unknown_lesson_or_exercise_is_said_in_japanese(capsys, argv, said):
    err = _refused(capsys, argv)
    assert said in err, err
    assert "no lesson" not in err and "has no exercise" not in err and "«" not in err, err


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--lang", "ja", "ir", "5/add", "--stage", "zz"], "引数 --stage: 'zz' は選べません"),
        (["--lang", "ja", "verify"], "次の引数が必要です: EXERCISE"),
        (["verify", "5", "--timeout", "x", "--lang=ja"], "引数 --timeout: 'x' は数値として読めません"),
        (
            ["--lang", "ja", "verify", "5", "--file", "a.py", "--solution"],
            "引数 --solution は --file と一緒には使えません",
        ),
        (["--lang", "ja", "verify", "5", "--bogus"], "知らない引数です: --bogus"),
    ],
)
def test_argparse_refusals_are_said_in_japanese(capsys, argv, said):
    err = _refused(capsys, argv)
    assert f"エラー: {said}" in err and err.startswith("使い方: tritonlab"), err
    assert "error:" not in err and "usage:" not in err, err


def test_english_is_unchanged(capsys):
    err = _refused(capsys, ["--lang", "en", "open", "99"])
    assert "tritonlab: error: no lesson '99' (lessons: 1, 2," in err, err
    err = _refused(capsys, ["--lang", "en", "ir", "5/add", "--stage", "zz"])
    assert "error: argument --stage: invalid choice: 'zz'" in err and err.startswith("usage: tritonlab"), err


def test_a_message_argparse_may_add_later_is_quoted_not_lost():
    assert argparse_message("something new", "ja") == "«something new»"
    assert argparse_message("something new", "en") == "something new"


def test_open_without_the_terminal_app_says_so_in_the_learners_language(monkeypatch, capsys):
    """`tritonlab open` where the app cannot be imported (no Textual) said it in English only."""
    import sys

    monkeypatch.setitem(sys.modules, "tritonlab.app.main", None)  # its import raises ImportError
    assert cli.main(["--lang", "ja", "open"]) == cli.EXIT_FAIL
    err = capsys.readouterr().err
    assert err.startswith("tritonlab: ターミナルアプリを利用できません: «") and "not available" not in err, (
        err
    )
    assert cli.main(["--lang", "en", "open"]) == cli.EXIT_FAIL
    assert capsys.readouterr().err.startswith("tritonlab: the terminal app is not available (")
