"""The static content check: outcome coverage, both languages, Japanese that is Japanese, no stray files.

Pure content: it reads lessons and never imports the engine (the starters-fail / solutions-pass check that
needs kernels lives in tritonlab/dev/check.py). The outcomes a lesson must cover come from its own lesson.toml
— ids L<number>.1, L<number>.2, … without gaps — so a new lesson folder needs no code change here. Findings
are Problems (path, line, code, values); content/problems.py has their words in English and Japanese."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from tritonlab.content.model import LANGS, Lesson, Problem

BASE_FILES = {"lesson.toml", "text.en.md", "text.ja.md", "quiz.toml"}
ACTIVITY_KINDS = ("exercise", "quiz", "sweep")
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)
_CODE = re.compile(r"```.*?```", re.S)
_OUTCOME_NUMBER = re.compile(r"^L(\d+)\.(\d+)$")


@dataclass
class Report:
    failures: list[Problem] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)
    runs: list[dict] = field(default_factory=list)


def headings(markdown: str) -> set[str]:
    return {h.strip() for h in _HEADING.findall(_CODE.sub("", markdown))}


def japanese_ratio(text: str) -> float:
    """Share of letters that are kana or kanji, outside code blocks and inline code."""
    prose = re.sub(r"`[^`]*`", "", _CODE.sub("", text))
    letters = [ch for ch in prose if ch.isalpha()]
    if not letters:
        return 0.0
    japanese = sum(
        1 for ch in letters if unicodedata.name(ch, "").startswith(("CJK", "HIRAGANA", "KATAKANA"))
    )
    return japanese / len(letters)


def _has_japanese(text: str) -> bool:
    return japanese_ratio(text) > 0.2


class _LessonCheck:
    """The findings for one lesson; `fail`/`warn` record a code at a file of the lesson."""

    def __init__(self, lesson: Lesson, report: Report):
        self.lesson = lesson
        self.report = report
        self.meta = lesson.path / "lesson.toml"

    def fail(self, code: str, path=None, line=None, **values) -> None:
        self.report.failures.append(Problem(path or self.meta, line, code, values))

    def warn(self, code: str, path=None, **values) -> None:
        self.report.warnings.append(Problem(path or self.meta, None, code, values))

    def run(self) -> None:
        self.texts()
        self.outcomes()
        self.outcome_references()
        self.exercises()
        self.quiz()
        self.files()

    def texts(self) -> None:
        lesson = self.lesson
        ja_path, en_path = lesson.texts["ja"], lesson.texts["en"]
        ja_ratio = japanese_ratio(lesson.text("ja"))
        if ja_ratio < 0.35:
            self.fail("ja-not-japanese", ja_path, percent=round(ja_ratio * 100))
        if japanese_ratio(lesson.text("en")) > 0.05:
            self.fail("en-has-japanese", en_path)
        for lang in LANGS:
            count = len(lesson.text(lang).splitlines())
            if count < 40:
                self.warn("short-text", lesson.texts[lang], lines=count)
        if not _has_japanese(lesson.title.get("ja", "")):
            self.fail("title-not-japanese", key="title")

    def outcomes(self) -> None:
        """The lesson's own outcomes are the expected ones: numbered from 1, each taught and each checked."""
        lesson = self.lesson
        if not lesson.outcomes:
            self.fail("no-outcomes", number=lesson.number)
            return
        mine = []
        for outcome in lesson.outcomes:
            match = _OUTCOME_NUMBER.match(outcome.id)
            if not match or int(match.group(1)) != lesson.number:
                self.fail("outcome-other-lesson", oid=outcome.id, number=lesson.number)
            else:
                mine.append(int(match.group(2)))
        for k in range(1, max(mine, default=0) + 1):
            if k not in mine:
                self.fail("outcome-numbering", number=lesson.number, missing=f"L{lesson.number}.{k}")
        heads = {lang: headings(lesson.text(lang)) for lang in LANGS}
        known = {
            "exercise": {e.id for e in lesson.exercises},
            "quiz": {q.id for q in lesson.quiz},
            "sweep": {e.id for e in lesson.exercises if e.bench and e.bench.sweep},
        }
        for outcome in lesson.outcomes:
            for lang in LANGS:
                sections = outcome.sections.get(lang) or []
                if not sections:
                    self.fail("outcome-no-section", oid=outcome.id, lang=lang)
                for title in sections:
                    if title not in heads[lang]:
                        self.fail(
                            "outcome-heading", oid=outcome.id, title=title, file=lesson.texts[lang].name
                        )
            checked = False
            for activity in outcome.activities:
                kind, _, ident = activity.partition(":")
                if ident in known.get(kind, ()):
                    checked = True
                else:
                    self.fail("activity-missing", oid=outcome.id, activity=activity)
            if not checked:
                self.fail("outcome-unchecked", oid=outcome.id)

    def outcome_references(self) -> None:
        """An exercise or question tagged with an outcome the lesson does not map is a typo or a stale tag."""
        mapped = {o.id for o in self.lesson.outcomes}
        for exercise in self.lesson.exercises:
            for oid in exercise.outcomes:
                if oid not in mapped:
                    self.fail("outcome-unknown", line=exercise.line, key=f"exercise[{exercise.id}]", oid=oid)
        for question in self.lesson.quiz:
            for oid in question.outcomes:
                if oid not in mapped:
                    self.fail(
                        "outcome-unknown",
                        self.lesson.path / "quiz.toml",
                        key=f"question[{question.id}]",
                        oid=oid,
                    )

    def exercises(self) -> None:
        for exercise in self.lesson.exercises:
            key = f"exercise[{exercise.id}]"
            if not _has_japanese(exercise.title.get("ja", "")):
                self.fail("title-not-japanese", line=exercise.line, key=key)
            if len(exercise.hints) < 2:
                self.fail("hints-few", line=exercise.line, key=key)
            for i, hint in enumerate(exercise.hints, 1):
                if not hint.get("en") or not _has_japanese(hint.get("ja", "")):
                    self.fail("hint-not-japanese", line=exercise.line, key=key, n=i)
            if exercise.run is None:
                self.warn("no-demo", key=key)
            if "TODO" not in exercise.starter.read_text(encoding="utf-8", errors="replace"):
                self.fail("starter-no-todo", exercise.starter, key=key, file=exercise.starter.name)

    def quiz(self) -> None:
        for question in self.lesson.quiz:
            for lang in LANGS:
                if any(
                    not choice.text.get(lang) or not choice.explain.get(lang) for choice in question.choices
                ):
                    self.fail("choice-text", self.lesson.path / "quiz.toml", qid=question.id, lang=lang)

    def files(self) -> None:
        allowed = BASE_FILES | {e.starter.name for e in self.lesson.exercises}
        for path in sorted(self.lesson.path.iterdir()):
            if path.name != "__pycache__" and path.name not in allowed:
                self.fail("stray-file", path, file=path.name)


def static_check(catalog, report: Report, only: set | None = None) -> None:
    """Load problems, then each lesson's findings; with `only` (lesson ids), just those lessons."""
    for problem in catalog.problems:
        report.failures.append(problem)
    for lesson in catalog.lessons:
        if only and lesson.id not in only:
            continue
        _LessonCheck(lesson, report).run()
    if only is None and catalog.lessons:
        numbers = {lesson.number for lesson in catalog.lessons}
        for number in range(1, max(numbers)):
            if number not in numbers:
                report.warnings.append(
                    Problem(catalog.lessons[0].path.parent, None, "lesson-gap", {"number": number})
                )
