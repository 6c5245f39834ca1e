"""Builds a lesson's self-check questions from quiz.toml (keys and types checked by the schema first)."""

from __future__ import annotations

from pathlib import Path

from tritonlab.content import schema
from tritonlab.content.exercises import ID
from tritonlab.content.model import Choice, Question
from tritonlab.content.toml_source import FileProblem, read_toml
from tritonlab.content.where import Where


def parse_quiz(path: Path) -> list[Question]:
    """The questions; FileProblem (at its line in quiz.toml) for the first thing wrong."""
    data, lines = read_toml(path)
    problems = schema.check(data, schema.QUIZ, path, lines)
    if problems:
        raise FileProblem(*problems)
    root = Where(path, lines, data)
    questions = []
    seen: set[str] = set()
    for index, raw in enumerate(data.get("question") or []):
        where = root / "question" / index
        qid = raw["id"]
        if not ID.match(qid):
            raise (where / "id").fail("bad-id", value=qid)
        if qid in seen:
            raise (where / "id").fail("duplicate-id", value=qid)
        seen.add(qid)
        choices = [
            Choice(ch["text"], ch.get("correct", False), ch.get("explain") or {}) for ch in raw["choice"]
        ]
        if len(choices) < 2:
            raise (where / "choice").fail("choices-min")
        if sum(c.correct for c in choices) != 1:
            raise where.fail("one-correct")
        questions.append(Question(qid, list(raw.get("outcomes") or []), raw["prompt"], choices))
    return questions
