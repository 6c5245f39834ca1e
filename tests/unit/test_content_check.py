"""The static content check takes a lesson's expected outcomes from its own lesson.toml: a new lesson folder
passes with no code change, and each way its outcome map can be wrong is caught (issue #11 item 4)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tritonlab.content.check import Report, static_check
from tritonlab.content.loader import load_catalog
from tritonlab.paths import kernels_dir, lessons_dir

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "lessons" / "11-fixture-scale"


def lessons_with_fixture(tmp_path: Path) -> tuple[Path, int]:
    """The shipped lessons plus the fixture as the next lesson number, as an author adding a folder would have
    them; returns the folder and that number."""
    root = tmp_path / "lessons"
    shutil.copytree(lessons_dir(), root, ignore=shutil.ignore_patterns("__pycache__", "__init__.py"))
    number = max(load_catalog(root, kernels_dir()).lessons, key=lambda les: les.number).number + 1
    folder = root / f"{number:02d}-fixture-scale"
    shutil.copytree(FIXTURE, folder)
    for name in ("lesson.toml", "quiz.toml"):
        path = folder / name
        text = path.read_text(encoding="utf-8").replace("number = 11", f"number = {number}")
        path.write_text(text.replace("L11.", f"L{number}."), encoding="utf-8")
    return root, number


def cli(*args: str, lessons: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "TRITONLAB_LESSONS_DIR": str(lessons)}
    return subprocess.run(
        [sys.executable, "-m", "tritonlab", *args],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
        timeout=120,
    )


def test_a_new_lesson_folder_passes_the_check_with_no_code_change(tmp_path):
    lessons, number = lessons_with_fixture(tmp_path)
    out = cli("check", "--no-kernels", "--json", lessons=lessons)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["ok"] and report["failures"] == []
    listed = json.loads(cli("list", "--json", lessons=lessons).stdout)
    added = next(les for les in listed["lessons"] if les["number"] == number)
    assert added["outcomes"] == [f"L{number}.1", f"L{number}.2"]


def _fixture_report(tmp_path: Path, edit) -> Report:
    folder = tmp_path / "lessons" / FIXTURE.name
    shutil.copytree(FIXTURE, folder)
    for name, (old, new) in edit.items():
        path = folder / name
        text = path.read_text(encoding="utf-8")
        if old is None:  # the whole file
            text, old = new, new
        assert old in text, f"the edit must apply: {old!r}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    catalog = load_catalog(folder.parent, kernels_dir())
    assert not catalog.problems, [str(p) for p in catalog.problems]
    report = Report()
    static_check(catalog, report, only={FIXTURE.name})
    return report


def test_the_fixture_itself_is_clean(tmp_path):
    assert _fixture_report(tmp_path, {}).failures == []


@pytest.mark.parametrize(
    "edit, code",
    [
        # an outcome numbered with a gap: L11.1, L11.3
        ({"lesson.toml": ('outcomes."L11.2"', 'outcomes."L11.3"')}, "outcome-numbering"),
        # an outcome of another lesson in lesson 11
        ({"lesson.toml": ('outcomes."L11.2"', 'outcomes."L12.1"')}, "outcome-other-lesson"),
        # an exercise tagged with an outcome the lesson does not map
        (
            {"lesson.toml": ('outcomes = ["L11.1", "L11.2"]', 'outcomes = ["L11.1", "L11.4"]')},
            "outcome-unknown",
        ),
        ({"quiz.toml": ('outcomes = ["L11.1"]', 'outcomes = ["L11.9"]')}, "outcome-unknown"),
        # a section heading that the text does not have
        ({"text.ja.md": ("## グリッド", "## 格子")}, "outcome-heading"),
        # an activity that does not exist, and an outcome left with no checked activity
        (
            {"lesson.toml": ('activities = ["exercise:add"]', 'activities = ["exercise:nope"]')},
            "outcome-unchecked",
        ),
        (
            {"lesson.toml": ('activities = ["exercise:add"]', 'activities = ["exercise:nope"]')},
            "activity-missing",
        ),
        # English in the Japanese text
        (
            {
                "text.ja.md": (
                    None,
                    "# Lesson 11\n\n## マスク付きロード\n\nEnglish prose only.\n\n## グリッド\n\nMore.\n",
                )
            },
            "ja-not-japanese",
        ),
        (
            {"text.en.md": ("Every load takes a mask.", "すべてのロードにマスクを付けます。" * 40)},
            "en-has-japanese",
        ),
        ({"add.py": ("TODO", "DONE")}, "starter-no-todo"),
    ],
)
def test_each_outcome_mistake_is_caught(tmp_path, edit, code):
    report = _fixture_report(tmp_path, edit)
    codes = [p.code for p in report.failures]
    assert code in codes, [str(p) for p in report.failures]


def test_a_lesson_with_no_outcomes_fails(tmp_path):
    folder = tmp_path / "lessons" / FIXTURE.name
    shutil.copytree(FIXTURE, folder)
    meta = folder / "lesson.toml"
    text = meta.read_text(encoding="utf-8")
    start, end = text.index('[outcomes."L11.1"]'), text.index("[[exercise]]")
    meta.write_text(text[:start] + text[end:], encoding="utf-8")
    catalog = load_catalog(folder.parent, kernels_dir())
    report = Report()
    static_check(catalog, report)
    assert "no-outcomes" in [p.code for p in report.failures]


def test_check_speaks_japanese(tmp_path):
    lessons = tmp_path / "lessons"
    shutil.copytree(FIXTURE, lessons / FIXTURE.name)
    meta = lessons / FIXTURE.name / "lesson.toml"
    meta.write_text(
        meta.read_text(encoding="utf-8").replace('outcomes."L11.2"', 'outcomes."L11.3"'), encoding="utf-8"
    )
    out = cli("--lang", "ja", "check", "--no-kernels", lessons=lessons)
    assert out.returncode == 1
    assert "学習目標の id は L11.1、L11.2" in out.stdout and "L11.2 がありません" in out.stdout, out.stdout
    assert "コンテンツチェック: 問題 2 件" in out.stdout  # the gap, and the exercise still tagged L11.2
    english = cli("--lang", "en", "check", "--no-kernels", lessons=lessons)
    assert "L11.2 is missing" in english.stdout and "content check: 2 problems" in english.stdout
    assert "学習目標" not in english.stdout
