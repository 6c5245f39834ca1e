"""`tritonlab quiz LESSON`: self-check questions in the terminal; answers count toward progress.

Choices are shown in an order shuffled per learner: a quiz whose right answer is always (a), or always the
longest, can be passed by pattern. The order is stable for one learner (seeded by a random id kept in the user
data dir and the question's lesson and id), so a question does not reshuffle between visits, and it differs
between learners and between questions. Grading maps the shown letter back to the choice itself, never to a
position in the file.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import secrets
import sys

from tritonlab import store
from tritonlab.content.model import tr

LETTERS = "abcdefgh"
LEARNER_ID_FILE = "learner-id-v1.txt"


def learner_id() -> str:
    """A random id made once per install (user data dir); only the quiz order uses it, nothing leaves the
    machine."""
    path = store.data_dir() / LEARNER_ID_FILE
    try:
        value = path.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        value = ""
    if len(value) < 8 or not value.isalnum():
        value = secrets.token_hex(8)
        with contextlib.suppress(
            OSError
        ):  # a read-only data dir: the order is then random per run, which is still not a pattern
            store.atomic_write(path, value + "\n")
    return value


def choice_order(lesson_id: str, question, learner: str | None = None) -> list[int]:
    """Indices into `question.choices` in the order this learner sees them (shown position -> file
    position)."""
    learner = learner if learner is not None else learner_id()
    seed = hashlib.sha256(f"{learner}\0{lesson_id}\0{question.id}".encode()).digest()
    order = list(range(len(question.choices)))
    random.Random(int.from_bytes(seed[:8], "big")).shuffle(order)
    return order


def grade(question, answer: str, order: list[int] | None = None) -> tuple[bool, int | None]:
    """(correct, index of the chosen choice in `question.choices`) for a shown letter or number; order as
    shown."""
    order = order if order is not None else list(range(len(question.choices)))
    answer = (answer or "").strip().lower()
    if len(answer) == 1 and answer in LETTERS[: len(order)]:
        shown = LETTERS.index(answer)
    elif answer.isdigit() and 1 <= int(answer) <= len(order):
        shown = int(answer) - 1
    else:
        return False, None
    index = order[shown]
    return question.choices[index].correct, index


def run_quiz(lesson, lang: str, answers: str | None = None, as_json: bool = False) -> int:
    scripted = [a for a in answers.split(",")] if answers is not None else None
    learner = learner_id()
    results = []
    out = sys.stdout
    for number, question in enumerate(lesson.quiz):
        order = choice_order(lesson.id, question, learner)
        if not as_json:
            out.write(f"\n{number + 1}. {tr(question.prompt, lang)}\n")
            for letter, file_index in zip(LETTERS, order, strict=False):
                out.write(f"   {letter}) {tr(question.choices[file_index].text, lang)}\n")
        if scripted is not None:
            answer = scripted[number] if number < len(scripted) else ""
        else:
            try:
                answer = input("answer> " if lang == "en" else "回答> ")
            except EOFError:
                answer = ""
        correct, index = grade(question, answer, order)
        right = next(i for i, c in enumerate(question.choices) if c.correct)
        right_letter = LETTERS[order.index(right)]
        chosen = question.choices[index] if index is not None else None
        store.record_quiz(lesson.id, question.id, correct)
        results.append(
            {
                "id": question.id,
                "answer": answer,
                "correct": correct,
                "right_choice": right_letter,
                "choices": [tr(question.choices[i].text, lang) for i in order],
                "explanation": tr(chosen.explain if chosen else question.choices[right].explain, lang),
            }
        )
        if not as_json:
            mark = (
                ("✓ correct" if lang == "en" else "✓ 正解")
                if correct
                else (f"✗ the answer is {right_letter})" if lang == "en" else f"✗ 正解は {right_letter})")
            )
            out.write(f"   {mark}\n")
            if chosen is not None:
                out.write(f"   {tr(chosen.explain, lang)}\n")
            if not correct:
                out.write(f"   {right_letter}) {tr(question.choices[right].explain, lang)}\n")
    score = sum(r["correct"] for r in results)
    if as_json:
        print(
            json.dumps(
                {"lesson": lesson.id, "score": score, "total": len(results), "questions": results},
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        out.write(f"\n{score}/{len(results)}\n")
    return 0 if score == len(results) else 1
