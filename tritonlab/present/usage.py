"""A refused command line in the learner's language: an unknown lesson or exercise (the catalog's facts) and
argparse's own refusals (a bad choice, a missing argument), which argparse writes in English only."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from tritonlab.present.words import Said


def unknown_ref(facts: Mapping[str, Any]) -> Said:
    """`content.loader.UnknownRef.facts` as a sentence."""
    what = facts.get("what")
    ref = repr(str(facts.get("ref", "")))
    known = ", ".join(str(k) for k in facts.get("known") or [])
    lesson = facts.get("lesson")
    if what == "lesson":
        return Said(
            f"no lesson {ref} (lessons: {known or 'none loaded'})",
            f"レッスン {ref} はありません(レッスン: {known or '読み込めたものはありません'})",
        )
    if what == "no-exercises":
        return Said(f"lesson {lesson} has no exercises", f"レッスン {lesson} には演習がありません")
    return Said(
        f"lesson {lesson} has no exercise {ref} (exercises: {known})",
        f"レッスン {lesson} に演習 {ref} はありません(演習: {known})",
    )


# argparse's messages (Python 3.11–3.13), the parts that vary as named groups
_ARGPARSE: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"argument (?P<arg>\S+): invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)"),
        "引数 {arg}: {value} は選べません(選べるのは {choices})",
    ),
    (
        re.compile(r"argument (?P<arg>\S+): invalid (?P<type>\w+) value: (?P<value>.+)"),
        "引数 {arg}: {value} は{type}として読めません",
    ),
    (re.compile(r"argument (?P<arg>\S+): expected one argument"), "引数 {arg} には値が 1 つ必要です"),
    (
        re.compile(r"argument (?P<arg>\S+): not allowed with argument (?P<other>\S+)"),
        "引数 {arg} は {other} と一緒には使えません",
    ),
    (re.compile(r"the following arguments are required: (?P<args>.+)"), "次の引数が必要です: {args}"),
    (re.compile(r"unrecognized arguments: (?P<args>.+)"), "知らない引数です: {args}"),
    (
        re.compile(r"ambiguous option: (?P<arg>\S+) could match (?P<options>.+)"),
        "{arg} は {options} のどれか決まりません",
    ),
]


_TYPES = {"float": "数値", "int": "整数"}


def argparse_message(message: str, lang: str) -> str:
    """argparse's error message in `lang`; one this module does not know is quoted as it was («…»)."""
    if lang != "ja":
        return message
    for pattern, ja in _ARGPARSE:
        match = pattern.fullmatch(message.strip())
        if match:
            found = match.groupdict()
            if "type" in found:
                found["type"] = _TYPES.get(found["type"], f" {found['type']} の値")
            return ja.format(**found)
    return f"«{message}»"
