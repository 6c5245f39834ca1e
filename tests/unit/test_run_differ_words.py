"""`run`'s "they differ" names the way to the details in the words of the surface showing it: the terminal said
"press F6 (Verify)" to someone who typed `tritonlab run` (there is no F6 there); the app keeps its key."""

from __future__ import annotations

from rich.console import Console

from tritonlab.present.cli import print_run
from tritonlab.present.run import run_lines

DIFFERS = {
    "exercise": "05-vector-add/add",
    "backend": "interpreter",
    "error": None,
    "call": {"entry": "add", "args": ["x", "y"], "kwargs": {}},
    "inputs": [{"name": "x", "shape": [2], "dtype": "float32", "device": "cpu", "values": "[1.0, 2.0]"}],
    "returned": {"shape": [2], "dtype": "float32", "device": "cpu", "values": "[1.0, nan]"},
    "expected": {"values": "[1.0, 2.0]"},
    "matches": False,
}


def _terminal(lang: str) -> str:
    console = Console(record=True, width=300)
    print_run(console, DIFFERS, lang)
    return console.export_text()


def test_the_terminal_names_the_verify_command():
    assert "they differ: run `tritonlab verify 05-vector-add/add` for details" in _terminal("en")
    ja = _terminal("ja")
    assert "`tritonlab verify 05-vector-add/add` を実行してください" in ja and "F6" not in ja


def test_the_app_names_its_key():
    assert run_lines(DIFFERS, "en", app=True)[-1] == "they differ: press F6 (Verify) for details"
    assert run_lines(DIFFERS, "ja", app=True)[-1] == "一致しません。詳しくは F6(検証)を押してください"
