"""`tritonlab quiz LESSON`: self-check questions in the terminal; answers count toward progress."""

from __future__ import annotations

import json
import sys

from tritonlab import store
from tritonlab.content.model import tr

LETTERS = "abcdefgh"


def grade(question, answer: str) -> tuple[bool, int | None]:
    answer = (answer or "").strip().lower()
    if len(answer) == 1 and answer in LETTERS[: len(question.choices)]:
        index = LETTERS.index(answer)
    elif answer.isdigit() and 1 <= int(answer) <= len(question.choices):
        index = int(answer) - 1
    else:
        return False, None
    return question.choices[index].correct, index


def run_quiz(lesson, lang: str, answers: str | None = None, as_json: bool = False) -> int:
    scripted = [a for a in answers.split(",")] if answers is not None else None
    results = []
    out = sys.stdout
    for number, question in enumerate(lesson.quiz):
        if not as_json:
            out.write(f"\n{number + 1}. {tr(question.prompt, lang)}\n")
            for letter, choice in zip(LETTERS, question.choices):
                out.write(f"   {letter}) {tr(choice.text, lang)}\n")
        if scripted is not None:
            answer = scripted[number] if number < len(scripted) else ""
        else:
            try:
                answer = input("answer> " if lang == "en" else "回答> ")
            except EOFError:
                answer = ""
        correct, index = grade(question, answer)
        right = next(i for i, c in enumerate(question.choices) if c.correct)
        chosen = question.choices[index] if index is not None else None
        store.record_quiz(lesson.id, question.id, correct)
        results.append({"id": question.id, "answer": answer, "correct": correct,
                        "right_choice": LETTERS[right],
                        "explanation": tr(chosen.explain if chosen else question.choices[right].explain, lang)})
        if not as_json:
            mark = ("✓ correct" if lang == "en" else "✓ 正解") if correct else (
                f"✗ the answer is {LETTERS[right]})" if lang == "en" else f"✗ 正解は {LETTERS[right]})")
            out.write(f"   {mark}\n")
            if chosen is not None:
                out.write(f"   {tr(chosen.explain, lang)}\n")
            if not correct:
                out.write(f"   {LETTERS[right]}) {tr(question.choices[right].explain, lang)}\n")
    score = sum(r["correct"] for r in results)
    if as_json:
        print(json.dumps({"lesson": lesson.id, "score": score, "total": len(results), "questions": results},
                         ensure_ascii=False, indent=2))
    else:
        out.write(f"\n{score}/{len(results)}\n")
    return 0 if score == len(results) else 1
