"""The CLI wraps Japanese like the app: rich breaks lines at spaces only, so a Japanese sentence after a space
(「カーネルのコンパイルが 100 秒を超えた…」) was one long word that jumped to the next line, leaving ragged lines
and a line starting with 「、」. `tritonlab.present.cjk_wrap` (pure rich) is installed by the CLI's console too,
without pulling Textual into the CLI."""

from __future__ import annotations

import re
import subprocess
import sys

import rich._wrap
from rich.cells import cell_len

from tritonlab import cli
from tritonlab.engine.results import IrResult
from tritonlab.present import cjk_wrap

WIDTH = 60
TIMEOUT = {
    "kind": "timeout",
    "message": "compiling took more than 100 s",
    "line": None,
    "timeout_s": 100.0,
    "stopped": "compiler",
}


class _Lab:
    def __init__(self, result) -> None:
        self.result = result

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def request(self, op, args, **kwargs):
        return self.result


def test_the_clis_japanese_lines_are_filled_and_punctuation_never_starts_one(monkeypatch, capsys):
    monkeypatch.setattr(rich._wrap, "re_word", re.compile(r"\s*\S+\s*"))  # rich's own, whatever ran before
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    result = IrResult.from_json({"exercise": "5", "error": TIMEOUT})
    monkeypatch.setattr(cli, "_lab", lambda opts: _Lab(result))
    assert cli.main(["--lang", "ja", "ir", "5"]) == cli.EXIT_FAIL
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) > 2, lines
    for line, after in zip(lines, lines[1:], strict=False):
        # a Japanese word is one character (with its brackets and punctuation), an ASCII word as before
        word = cjk_wrap.WORD.match(after)
        assert word is not None and cell_len(line + word.group().rstrip()) > WIDTH, lines
    assert not any(line.startswith(("、", "。", ")", "」")) for line in lines), lines


def test_the_clis_console_does_not_import_textual():
    code = "import sys; from tritonlab import cli; cli._console(); print('textual' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
