"""The content check, as CI runs it: coverage and languages (static), then every starter fails and every
solution passes on this machine's backend."""

import pytest

from tritonlab.content.check import Report, static_check
from tritonlab.content.loader import load_catalog
from tritonlab.engine.client import WorkerClient

CATALOG = load_catalog()
EXERCISES = CATALOG.all_exercises()


def test_every_lesson_loads():
    assert not CATALOG.problems, "\n".join(str(p) for p in CATALOG.problems)


@pytest.mark.parametrize("lesson", CATALOG.lessons, ids=lambda les: les.id)
def test_static_content_check(lesson):
    report = Report()
    static_check(CATALOG, report, only={lesson.id})
    assert not report.failures, "\n".join(report.failures)


@pytest.fixture(scope="module")
def worker():
    client = WorkerClient(backend="auto")
    yield client
    client.close()


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda e: e.key)
def test_solution_passes_and_starter_fails(worker, exercise):
    solution = worker.request("verify", {"exercise": exercise.key, "solution": True}, timeout=300)
    assert solution.get("passed"), f"solution fails: {solution.get('summary') or solution.get('error')}"
    starter = worker.request("verify", {"exercise": exercise.key, "file": str(exercise.starter)}, timeout=300)
    assert not starter.get("passed"), "the starter passes verification"
    # A warm interpreter verify's time (the 3 s budget) is a benchmark: scripts/interpreter_times.py.
