"""Quizzes cannot be passed by pattern: shuffled per learner, graded by choice, right answer not the longest by habit."""

from __future__ import annotations

import pytest

from tritonlab import quiz
from tritonlab.content.loader import load_catalog
from tritonlab.content.model import Choice, Question

LANGS = ("en", "ja")


@pytest.fixture(scope="module")
def lessons():
    return [lesson for lesson in load_catalog().lessons if lesson.quiz]


def _question(qid="q", n=4, right=0):
    return Question(
        id=qid,
        outcomes=[],
        prompt={"en": "?"},
        choices=[
            Choice(text={"en": f"choice {i}"}, correct=i == right, explain={"en": ""}) for i in range(n)
        ],
    )


def test_right_answer_is_the_longest_in_at_most_40_percent_of_questions(lessons):
    questions = [q for lesson in lessons for q in lesson.quiz]
    assert len(questions) >= 40  # the count below means something only over the real quizzes
    for lang in LANGS:
        longest = 0
        for q in questions:
            lengths = [len(c.text[lang]) for c in q.choices]
            right = next(i for i, c in enumerate(q.choices) if c.correct)
            longest += lengths[right] == max(lengths)
        assert longest / len(questions) <= 0.40, f"{lang}: right answer longest in {longest}/{len(questions)}"


def test_no_lesson_keeps_its_right_answers_in_one_file_position(lessons):
    for lesson in lessons:
        positions = {next(i for i, c in enumerate(q.choices) if c.correct) for q in lesson.quiz}
        assert len(lesson.quiz) < 3 or len(positions) > 1, f"{lesson.id}: right answer always at {positions}"


def test_order_is_stable_per_learner_and_differs_across_learners_and_lessons(lessons):
    q = _question(n=4)
    assert quiz.choice_order("05-x", q, "learner1") == quiz.choice_order("05-x", q, "learner1")
    assert sorted(quiz.choice_order("05-x", q, "learner1")) == [0, 1, 2, 3]
    everyone = {tuple(quiz.choice_order("05-x", q, f"learner{i}")) for i in range(40)}
    assert len(everyone) > 10  # 24 possible orders; 40 learners all on one or two would be a pattern
    lessons_seen = {tuple(quiz.choice_order(f"{n:02d}-x", q, "learner1")) for n in range(1, 11)}
    assert len(lessons_seen) > 3
    # over the real quizzes one learner does not see the right answer always at (a)
    shown_right = [
        quiz.choice_order(les.id, q, "learner1").index(next(i for i, c in enumerate(q.choices) if c.correct))
        for les in lessons
        for q in les.quiz
    ]
    assert 0.1 < shown_right.count(0) / len(shown_right) < 0.5


def test_learner_id_is_made_once_and_kept():
    first = quiz.learner_id()
    assert first == quiz.learner_id()
    (quiz.store.data_dir() / quiz.LEARNER_ID_FILE).write_text("not valid!\n")
    assert quiz.learner_id() not in ("", "not valid!", first)  # a broken id file is replaced, not trusted


def test_grading_follows_the_shown_order_not_the_file_position():
    q = _question(n=4, right=0)
    order = [2, 0, 3, 1]  # the right choice (file index 0) is shown as b)
    assert quiz.grade(q, "b", order) == (True, 0)
    assert quiz.grade(q, "a", order) == (False, 2)
    assert quiz.grade(q, "2", order) == (True, 0)
    assert quiz.grade(q, "e", order) == (False, None)
    assert quiz.grade(q, "a") == (True, 0)  # no order given: shown as in the file
