"""Line breaking for Japanese: allow a break between any two CJK characters (with basic kinsoku).

Rich (and Textual's Content, which uses Rich's `divide_line`) only breaks at whitespace. Japanese has none, so
a sentence after a space is one long "word": it jumps to the next line and is folded there, leaving ragged
half-empty lines. Rich reads its word pattern from the module global `rich._wrap.re_word` on every call;
replacing it with one that also ends a word after each CJK character fixes wrapping everywhere. Text without
CJK characters splits exactly as before (`\\s*\\S+\\s*`).

Pure rich, no Textual: the app installs it when it starts and the CLI when it makes its console.
"""

from __future__ import annotations

import re

# Characters that must not start a line (closing brackets, punctuation, small kana, the long-vowel mark)…
_CLOSE = "、。，．・：；？！ー」』）］｝〉》】〕ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々"
# …and that must not end one (opening brackets).
_OPEN = "「『（［｛〈《【〔"
_CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"

WORD = re.compile(rf"\s*[{_OPEN}]*(?:[{_CJK}]|[^\s{_CJK}]+)[{_CLOSE}]*\s*")


def install() -> None:
    import rich._wrap

    rich._wrap.re_word = WORD
