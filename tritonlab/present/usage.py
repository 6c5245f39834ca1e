"""A refused command line in the learner's language: an unknown lesson or exercise (the catalog's facts),
the engine's refusals of a request (a `usage` error's `code` and values: no [exercise.bench], a bad --arch) and
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


def refusal(facts: Mapping[str, Any]) -> Said | None:
    """A `usage` error the engine refused a request with, worded from its `code` and values; None for one
    without a code this version knows (an older or newer engine: the caller quotes its English message)."""
    code = facts.get("code")
    if code == "unknown-ref":
        return unknown_ref(facts)
    if code == "no-bench":
        exercise = facts.get("exercise") or "?"
        if facts.get("op") == "profile":
            return Said(
                f"{exercise} declares no [exercise.bench]: no data to profile on",
                f"{exercise} には [exercise.bench] の指定がないため、プロファイルに使うデータがありません",
            )
        return Said(
            f"{exercise} declares no [exercise.bench]: nothing to time",
            f"{exercise} には [exercise.bench] の指定がないため、計測するものがありません",
        )
    if code in ("arch-format", "arch-too-old"):
        arch = repr(str(facts.get("arch", "")))
        if code == "arch-too-old":
            minimum = facts.get("minimum") or "sm_75"
            return Said(
                f"--arch {arch}: Triton targets {minimum} and newer",
                f"--arch {arch}: Triton が対応するのは {minimum} 以降です",
            )
        return Said(
            f"--arch {arch}: expected sm_NN such as sm_80, sm_89, sm_90 or sm_100",
            f"--arch {arch}: sm_80、sm_89、sm_90、sm_100 のような sm_NN の形で指定してください",
        )
    if code == "unknown-stage":
        stage = repr(str(facts.get("stage", "")))
        stages = [str(s) for s in facts.get("stages") or []]
        return Said(
            f"unknown stage {stage}: choose one of {', '.join(stages)}",
            f"ステージ {stage} はありません({'、'.join(stages)} から選んでください)",
        )
    if code == "bad-size":
        size, why = facts.get("size") or "?", str(facts.get("exception") or "").strip()
        quoted = f": «{why}»" if why else ""  # the lesson's own exception text, quoted as it was
        return Said(f"cannot make inputs for {size}{quoted}", f"{size} の入力を作れません{quoted}")
    if code == "unknown-op":
        op = repr(str(facts.get("op", "")))
        return Said(f"unknown request {op}", f"ワーカーは {op} というリクエストを知りません")
    if code == "no-gpu":
        return Said(
            "--backend gpu was asked for, but torch sees no CUDA GPU (torch.cuda.is_available() is False)",
            "--backend gpu が指定されましたが、torch から CUDA GPU が見えません"
            "(torch.cuda.is_available() が False です)",
        )
    return None


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
