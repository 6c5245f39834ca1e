"""Japanese text in the app: lines break between characters, and soft line breaks do not leave gaps."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from tritonlab.app.widgets.explanation import join_cjk_soft_breaks
from tritonlab.present import cjk_wrap

SENTENCE = "z = x + y は Triton の「hello world」ですが、同時に、これから書くすべてのカーネルに共通するライフサイクルの縮図でもあります。"


def _wrapped(text: str, width: int) -> list[str]:
    console = Console(width=width, record=True, file=None, color_system=None, legacy_windows=False)
    with console.capture() as capture:
        console.print(Text(text))
    return capture.get().splitlines()


def test_japanese_lines_are_filled_and_punctuation_never_starts_a_line():
    cjk_wrap.install()
    lines = _wrapped(SENTENCE, 30)
    assert all(Console().measure(Text(line)).maximum >= 26 for line in lines[:-1]), lines
    assert not any(line.lstrip().startswith(("、", "。", "」")) for line in lines), lines
    english = [line.rstrip() for line in _wrapped("The quick brown fox jumps over the lazy dog.", 20)]
    assert english == ["The quick brown fox", "jumps over the lazy", "dog."]


def test_soft_breaks_between_japanese_characters_are_joined_outside_code():
    markdown = "ライフサイクルの\n縮図です。\n\n# 見出し\n本文\n```\nあ\nい\n```\n"
    joined = join_cjk_soft_breaks(markdown)
    assert "ライフサイクルの縮図です。" in joined
    assert "# 見出し\n本文" in joined
    assert "```\nあ\nい\n```" in joined
