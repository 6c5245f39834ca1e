"""Every malformed lesson file is a `path:line: message` problem of that lesson only; the other lessons load
and run (issue #14 item 3). Driven through the real CLI with TRITONLAB_LESSONS_DIR, as authors meet it.

`list` and `list --json` run once per broken case (no torch: fast). `verify` starts a worker (torch, ~3 s), so
it runs once per case that crashed `verify` before this check existed, and once over a folder holding every
case at the same time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.broken_lessons import CASES, GOOD_REF, expected_location, make_duplicate, make_lessons

ROOT = Path(__file__).resolve().parents[2]
#: The cases that crashed `tritonlab list`/`verify` (a traceback) before the schema and the UTF-8 checks.
CRASHED_BEFORE = {
    "lesson-toml-not-utf8",
    "text-en-not-utf8",
    "text-ja-shift-jis",
    "quiz-shift-jis",
    "starter-not-utf8",
    "integer-for-dtypes",
    "integer-for-outcomes",
    "empty-dtypes",
}
BY_NAME = {case.name: case for case in CASES}


def cli(lessons: Path, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    env = {**os.environ, "TRITONLAB_LESSONS_DIR": str(lessons), "COLUMNS": "300"}
    return subprocess.run(
        [sys.executable, "-m", "tritonlab", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=timeout,
    )


def no_traceback(out: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in out.stdout + out.stderr, out.stdout + out.stderr


def located(path: Path, line: int) -> str:
    return f"{path}:{line}: "


@pytest.fixture
def one_broken(tmp_path):
    def build(name: str):
        case = BY_NAME[name]
        folder = make_lessons(tmp_path / "lessons", [case])[name]
        return case, folder, tmp_path / "lessons"

    return build


@pytest.mark.parametrize("name", sorted(BY_NAME))
def test_list_reports_the_broken_lesson_and_lists_the_good_one(one_broken, name):
    case, folder, lessons = one_broken(name)
    path, line = expected_location(case, folder)

    out = cli(lessons, "--lang", "en", "list")
    no_traceback(out)
    assert out.returncode == 0, out.stderr
    assert "Fixture: vector add once more" in out.stdout, "the good lesson is still listed"
    assert located(path, line) in out.stdout, out.stdout

    out = cli(lessons, "list", "--json")
    no_traceback(out)
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)
    assert [lesson["number"] for lesson in listed["lessons"]] == [11]
    problems = [(p["path"], p["line"] or 1, p["code"]) for p in listed["problems"]]
    assert (str(path), line, case.code) in problems, problems
    assert all(p["message"] for p in listed["problems"])

    japanese = cli(lessons, "--lang", "ja", "list")
    no_traceback(japanese)
    ja_line = next(ln for ln in japanese.stdout.splitlines() if ln.startswith(located(path, line)))
    en_line = next(
        ln for ln in out_lines(cli(lessons, "--lang", "en", "list")) if ln.startswith(located(path, line))
    )
    assert ja_line != en_line, "the problem is told in Japanese with --lang ja"


def out_lines(out: subprocess.CompletedProcess) -> list[str]:
    return out.stdout.splitlines()


@pytest.mark.parametrize("name", sorted(CRASHED_BEFORE))
def test_verify_of_the_good_lesson_runs_and_names_the_broken_one(one_broken, name):
    case, folder, lessons = one_broken(name)
    path, line = expected_location(case, folder)
    out = cli(lessons, "verify", GOOD_REF, "--solution", "--backend", "interpreter", timeout=300)
    no_traceback(out)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "PASSED" in out.stdout
    assert located(path, line) in out.stderr, out.stderr


def test_duplicate_lesson_number_is_reported(tmp_path):
    lessons = tmp_path / "lessons"
    make_lessons(lessons, [])
    duplicate = make_duplicate(lessons)
    listed = json.loads(cli(lessons, "list", "--json").stdout)
    assert [lesson["id"] for lesson in listed["lessons"]] == ["11-fixture-scale"], "the first folder wins"
    [problem] = listed["problems"]
    assert problem["code"] == "duplicate-number" and problem["path"] == str(duplicate / "lesson.toml")
    assert problem["line"] == 3 and "11-fixture-scale" in problem["message"]
    out = cli(lessons, "verify", GOOD_REF, "--solution", "--backend", "interpreter", timeout=300)
    no_traceback(out)
    assert out.returncode == 0 and "PASSED" in out.stdout
    assert located(duplicate / "lesson.toml", 3) in out.stderr


def test_every_broken_case_at_once(tmp_path):
    """All cases side by side: each is reported at its own path:line, the good lesson verifies."""
    lessons = tmp_path / "lessons"
    folders = make_lessons(lessons, CASES)
    out = cli(lessons, "verify", GOOD_REF, "--solution", "--backend", "interpreter", timeout=300)
    no_traceback(out)
    assert out.returncode == 0 and "PASSED" in out.stdout, out.stdout + out.stderr
    for case in CASES:
        path, line = expected_location(case, folders[case.name])
        assert located(path, line) in out.stderr, f"{case.name} not reported at {path.name}:{line}"
    first = cli(lessons, "quiz", GOOD_REF, "--answers", "a", "--json")
    no_traceback(first)
    right = json.loads(first.stdout)["questions"][0]["right_choice"]  # choices are shuffled per learner
    quiz = cli(lessons, "quiz", GOOD_REF, "--answers", right, "--json")
    no_traceback(quiz)
    assert quiz.returncode == 0 and json.loads(quiz.stdout)["score"] == 1
