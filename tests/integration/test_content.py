"""The content check, as CI runs it: coverage and languages (static), then every starter fails and every
solution passes on this machine's backend (through tritonlab.dev.check, as `tritonlab check` runs it). A warm
interpreter verify's time (the 3 s budget) is a benchmark (scripts/interpreter_times.py), not asserted
here."""

import json
import shutil
from pathlib import Path

import pytest

from tritonlab.content.check import Report, static_check
from tritonlab.content.loader import load_catalog
from tritonlab.dev.check import KernelJudge, run_check
from tritonlab.paths import kernels_dir

CATALOG = load_catalog()
EXERCISES = CATALOG.all_exercises()


def test_every_lesson_loads():
    assert not CATALOG.problems, "\n".join(str(p) for p in CATALOG.problems)


@pytest.mark.parametrize("lesson", CATALOG.lessons, ids=lambda les: les.id)
def test_static_content_check(lesson):
    report = Report()
    static_check(CATALOG, report, only={lesson.id})
    assert not report.failures, "\n".join(str(p) for p in report.failures)
    assert lesson.outcomes, "every shipped lesson maps its outcomes"


@pytest.fixture(scope="module")
def judge():
    judge = KernelJudge(backend="auto")
    yield judge
    judge.close()


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.key)
def test_solution_passes_and_starter_fails(judge, exercise):
    """Through the developer check's door to the engine, as `tritonlab check` runs it."""
    solution = judge.verify(exercise.key, solution=True)
    assert solution.passed, f"solution fails on the {solution.backend}: {solution.summary}"
    starter = judge.verify(exercise.key, file=str(exercise.starter))
    assert not starter.passed, "the starter passes verification"


FIXTURE_11 = Path(__file__).resolve().parents[1] / "fixtures" / "lessons" / "11-fixture-scale"


def test_developer_check_runs_a_new_lesson_folder_through_the_engine(tmp_path, monkeypatch, capsys):
    """`tritonlab check 11` on an added folder: its starter fails and its solution passes, with no code
    change; the same folder whose starter is the solution is caught."""
    lessons = tmp_path / "lessons"
    shutil.copytree(FIXTURE_11, lessons / FIXTURE_11.name)
    monkeypatch.setenv("TRITONLAB_LESSONS_DIR", str(lessons))
    assert run_check(backend="interpreter", as_json=True, lessons=["11"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert [(r["which"], r["passed"]) for r in report["runs"]] == [("solution", True), ("starter", False)]

    shutil.copy(kernels_dir() / "vector_add.py", lessons / FIXTURE_11.name / "add.py")
    assert run_check(backend="interpreter", as_json=True, lessons=["11"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert "starter-passes" in [p["code"] for p in report["problems"]]
