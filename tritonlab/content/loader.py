"""Loads lessons. A broken lesson is reported as `path:line` problems (facts: content/problems.py has the
words) and left out; every other lesson still loads. Keys and types are checked by content/schema.py, the
exercises are built by content/exercises.py and the quiz by content/quiz_parser.py."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from tritonlab import paths
from tritonlab.content import schema
from tritonlab.content.exercises import parse_exercise
from tritonlab.content.model import LANGS, Exercise, Lesson, Outcome, Problem
from tritonlab.content.quiz_parser import parse_quiz
from tritonlab.content.toml_source import FileProblem, read_text, read_toml
from tritonlab.content.where import Where

FORMAT = 1
_FOLDER = re.compile(r"^(\d{2})-[a-z0-9][a-z0-9-]*$")
_OUTCOME_ID = re.compile(r"^L\d+\.\d+$")


class UnknownRef(KeyError):
    """A lesson or exercise reference the catalog does not hold. A KeyError whose text is the English sentence
    (as before); `facts` say what was asked and what exists, for `present.usage.unknown_ref` to word in either
    language: `what` ("lesson", "exercise" or "no-exercises"), `ref`, `lesson`, `known`."""

    def __init__(self, message: str, **facts) -> None:
        super().__init__(message)
        self.facts = facts


@dataclass
class Catalog:
    lessons: list[Lesson] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def lesson(self, ref: str | int) -> Lesson | None:
        ref = str(ref).strip().strip("/")
        for lesson in self.lessons:
            if ref == lesson.id or (ref.isdigit() and int(ref) == lesson.number):
                return lesson
            if ref == lesson.id.split("-", 1)[1]:
                return lesson
        return None

    def exercise(self, ref: str) -> Exercise:
        """Resolve `LESSON[/EXERCISE]`: LESSON is a number (5, 05), a folder name or its slug."""
        lesson_ref, _, exercise_ref = str(ref).strip().partition("/")
        lesson = self.lesson(lesson_ref)
        if lesson is None:
            numbers = [str(les.number) for les in self.lessons]
            known = ", ".join(numbers)
            raise UnknownRef(
                f"no lesson {lesson_ref!r} (lessons: {known or 'none loaded'})",
                what="lesson",
                ref=lesson_ref,
                known=numbers,
            )
        if not exercise_ref:
            if not lesson.exercises:
                raise UnknownRef(
                    f"lesson {lesson.id} has no exercises", what="no-exercises", lesson=lesson.id
                )
            return lesson.exercises[0]
        found = lesson.exercise(exercise_ref)
        if found is None and exercise_ref.isdigit() and 1 <= int(exercise_ref) <= len(lesson.exercises):
            found = lesson.exercises[int(exercise_ref) - 1]
        if found is None:
            ids = [e.id for e in lesson.exercises]
            raise UnknownRef(
                f"lesson {lesson.id} has no exercise {exercise_ref!r} (exercises: {', '.join(ids)})",
                what="exercise",
                ref=exercise_ref,
                lesson=lesson.id,
                known=ids,
            )
        return found

    def all_exercises(self) -> list[Exercise]:
        return [e for lesson in self.lessons for e in lesson.exercises]


def load_catalog(lessons_root: Path | None = None, kernels_root: Path | None = None) -> Catalog:
    lessons_root = Path(lessons_root or paths.lessons_dir())
    kernels_root = Path(kernels_root or paths.kernels_dir())
    catalog = Catalog()
    if not lessons_root.is_dir():
        catalog.problems.append(Problem(lessons_root, None, "lessons-dir-missing"))
        return catalog
    for folder in sorted(p for p in lessons_root.iterdir() if p.is_dir()):
        if folder.name.startswith((".", "_")):
            continue
        try:
            catalog.lessons.append(load_lesson(folder, kernels_root))
        except FileProblem as exc:
            catalog.problems.extend(exc.problems)
    _drop_duplicate_numbers(catalog)
    catalog.lessons.sort(key=lambda les: les.number)
    return catalog


def _drop_duplicate_numbers(catalog: Catalog) -> None:
    """Two folders with one number would make `tritonlab verify 5` ambiguous: the first (by name) wins."""
    first: dict[int, Lesson] = {}
    kept = []
    for lesson in catalog.lessons:
        if lesson.number in first:
            path = lesson.path / "lesson.toml"
            catalog.problems.append(
                Problem(
                    path,
                    lesson.number_line,
                    "duplicate-number",
                    {"number": lesson.number, "other": first[lesson.number].id},
                )
            )
            continue
        first[lesson.number] = lesson
        kept.append(lesson)
    catalog.lessons = kept


def load_lesson(folder: Path, kernels_root: Path) -> Lesson:
    """One lesson folder; FileProblem with every problem found when it cannot be used."""
    meta_path = folder / "lesson.toml"
    match = _FOLDER.match(folder.name)
    if not match:
        raise FileProblem(Problem(folder, None, "folder-name"))
    if not meta_path.is_file():
        raise FileProblem(Problem(folder, None, "missing-file", {"file": "lesson.toml"}))
    data, lines = read_toml(meta_path)
    problems = schema.check(data, schema.LESSON, meta_path, lines)
    if problems:
        raise FileProblem(*problems)
    root = Where(meta_path, lines, data)
    if data["format"] != FORMAT:
        raise (root / "format").fail("format", expected=FORMAT, found=data["format"])
    number = data["number"]
    if number != int(match.group(1)):
        raise (root / "number").fail("number-mismatch", number=number, folder=folder.name)
    texts = _texts(folder, meta_path)
    outcomes = _outcomes(data.get("outcomes") or {}, root / "outcomes", number)
    exercises = _exercises(data.get("exercise") or [], root / "exercise", folder, kernels_root)
    quiz_path = folder / "quiz.toml"
    quiz = parse_quiz(quiz_path) if quiz_path.exists() else []
    return Lesson(
        id=folder.name,
        number=number,
        path=folder,
        title=data["title"],
        summary=data.get("summary") or {},
        texts=texts,
        outcomes=outcomes,
        exercises=exercises,
        quiz=quiz,
        number_line=(root / "number").line,
    )


def _texts(folder: Path, meta_path: Path) -> dict[str, Path]:
    """text.en.md and text.ja.md must exist and be UTF-8: the app and the check read them later, unguarded."""
    texts = {}
    for lang in LANGS:
        path = folder / f"text.{lang}.md"
        if not path.is_file():
            raise FileProblem(Problem(meta_path, None, "missing-file", {"file": path.name}))
        read_text(path)
        texts[lang] = path
    return texts


def _outcomes(raw: dict, where: Where, number: int) -> list[Outcome]:
    outcomes = []
    for oid, spec in raw.items():
        if not _OUTCOME_ID.match(oid):
            raise (where / oid).fail("outcome-id", oid=oid, number=number)
        outcomes.append(Outcome(oid, spec["sections"], list(spec["activities"])))
    return outcomes


def _exercises(raw: list, where: Where, folder: Path, kernels_root: Path) -> list[Exercise]:
    exercises: list[Exercise] = []
    for index, entry in enumerate(raw):
        exercise = parse_exercise(entry, where / index, folder, kernels_root)
        if any(e.id == exercise.id for e in exercises):
            raise (where / index / "id").fail("duplicate-id", value=exercise.id)
        exercises.append(exercise)
    return exercises
