"""A battery of broken lesson folders (issue #14 item 3), shared by the CLI and app tests.

Each case copies the good fixture lesson 11 to a new number, breaks one thing, and names the file, the line
(found by a marker in the broken file) and the problem code that the loader must report for that lesson only.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GOOD = ROOT / "tests" / "fixtures" / "lessons" / "11-fixture-scale"
GOOD_REF = "11"


@dataclass(frozen=True)
class Broken:
    name: str
    breaks: Callable[[Path], None]  # edits the copied folder
    file: str  # the file the problem points at, relative to the lesson folder ("" for the folder)
    marker: bytes | None  # text on the line the problem points at (None: the whole file, line 1)
    code: str


def _replace(name: str, old: str, new: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert old in text, f"{name}: the breaking edit must apply: {old!r}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")

    return edit


def _sub(name: str, pattern: str, new: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / name
        text, count = re.subn(pattern, new, path.read_text(encoding="utf-8"), count=1, flags=re.M)
        assert count == 1, f"{name}: the breaking edit must apply: {pattern!r}"
        path.write_text(text, encoding="utf-8")

    return edit


def _reencode(name: str, encoding: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / name
        path.write_bytes(path.read_text(encoding="utf-8").encode(encoding, errors="replace"))

    return edit


def _bad_byte(name: str, old: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        path = folder / name
        data = path.read_bytes()
        assert old.encode() in data
        path.write_bytes(data.replace(old.encode(), old.encode() + b"\xff", 1))

    return edit


def _delete(name: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        (folder / name).unlink()

    return edit


def _starter_is_a_folder(folder: Path) -> None:
    (folder / "add.py").unlink()
    (folder / "add.py").mkdir()


def _empty(name: str) -> Callable[[Path], None]:
    def edit(folder: Path) -> None:
        (folder / name).write_text("", encoding="utf-8")

    return edit


def _quiz_second_correct(folder: Path) -> None:
    _replace(
        "quiz.toml",
        'text = { en = "Only the store", ja = "ストアだけ" }',
        'text = { en = "Only the store", ja = "ストアだけ" }\ncorrect = true',
    )(folder)


CASES = [
    Broken(
        "lesson-toml-not-utf8",
        _bad_byte("lesson.toml", "title = { en"),
        "lesson.toml",
        b"title = {",
        "not-utf8",
    ),
    Broken(
        "text-en-not-utf8", _bad_byte("text.en.md", "## The grid"), "text.en.md", b"## The grid", "not-utf8"
    ),
    Broken("text-ja-shift-jis", _reencode("text.ja.md", "shift_jis"), "text.ja.md", None, "not-utf8"),
    Broken("quiz-shift-jis", _reencode("quiz.toml", "shift_jis"), "quiz.toml", b"prompt =", "not-utf8"),
    Broken("starter-not-utf8", _bad_byte("add.py", "import torch"), "add.py", b"import torch", "not-utf8"),
    Broken(
        "bad-toml",
        _replace("lesson.toml", "[exercise.verify]", "[exercise.verify"),
        "lesson.toml",
        b"[exercise.verify",
        "bad-toml",
    ),
    Broken(
        "quiz-bad-toml",
        _replace("quiz.toml", "correct = true", "correct = "),
        "quiz.toml",
        b"correct = ",
        "bad-toml",
    ),
    Broken(
        "array-for-table",
        _replace("lesson.toml", "[exercise.verify]", "[[exercise.verify]]"),
        "lesson.toml",
        b"[[exercise.verify]]",
        "wrong-type",
    ),
    Broken(
        "list-for-title",
        _replace(
            "lesson.toml",
            'title = { en = "Fixture: vector add once more", ja = "フィクスチャ：もう一度ベクトル加算" }',
            'title = ["Fixture", "フィクスチャ"]',
        ),
        "lesson.toml",
        b"title = [",
        "wrong-type",
    ),
    Broken(
        "table-for-exercise-array",
        _replace("lesson.toml", "[[exercise]]", "[exercise]"),
        "lesson.toml",
        b"[exercise]",
        "wrong-type",
    ),
    Broken(
        "number-as-text",
        _sub("lesson.toml", r"^number = (\d+)", r'number = "\1"'),
        "lesson.toml",
        b'number = "',
        "wrong-type",
    ),
    Broken(
        "seed-as-text",
        _replace("lesson.toml", 'dtypes = ["float32"]', 'dtypes = ["float32"]\nseeds = ["0"]'),
        "lesson.toml",
        b"seeds = ",
        "wrong-type",
    ),
    Broken(
        "integer-for-dtypes",
        _replace("lesson.toml", 'dtypes = ["float32"]', "dtypes = 32"),
        "lesson.toml",
        b"dtypes = 32",
        "wrong-type",
    ),
    Broken(
        "integer-for-shape",
        _replace("lesson.toml", '[exercise.inputs.y]\nshape = ["n"]', "[exercise.inputs.y]\nshape = 3"),
        "lesson.toml",
        b"shape = 3",
        "wrong-type",
    ),
    Broken(
        "text-for-hints",
        _replace("lesson.toml", "hints = [", 'hints = "see the text"\nold_hints = ['),
        "lesson.toml",
        b'hints = "see',
        "wrong-type",
    ),
    Broken(
        "text-for-tolerance",
        _replace(
            "lesson.toml", 'dtypes = ["float32"]', 'dtypes = ["float32"]\ntolerance = { float32 = "1e-3" }'
        ),
        "lesson.toml",
        b"tolerance =",
        "wrong-type",
    ),
    Broken(
        "integer-for-outcomes",
        _sub("lesson.toml", r"^outcomes = \[.*\]$", "outcomes = 11"),
        "lesson.toml",
        b"outcomes = 11",
        "wrong-type",
    ),
    Broken(
        "date-for-format",
        _replace("lesson.toml", "format = 1", "format = 2026-12-02"),
        "lesson.toml",
        b"format = 2026",
        "wrong-type",
    ),
    Broken(
        "empty-dtypes",
        _replace("lesson.toml", 'dtypes = ["float32"]', "dtypes = []"),
        "lesson.toml",
        b"dtypes = []",
        "empty",
    ),
    Broken("missing-starter", _delete("add.py"), "lesson.toml", b'starter = "add.py"', "file-not-found"),
    Broken(
        "starter-is-a-folder", _starter_is_a_folder, "lesson.toml", b'starter = "add.py"', "file-not-found"
    ),
    Broken("missing-text-ja", _delete("text.ja.md"), "lesson.toml", None, "missing-file"),
    Broken("missing-lesson-toml", _delete("lesson.toml"), "", None, "missing-file"),
    Broken("empty-lesson-toml", _empty("lesson.toml"), "lesson.toml", None, "missing-key"),
    Broken(
        "unknown-top-key",
        _replace("lesson.toml", "summary = {", "sumary = {"),
        "lesson.toml",
        b"sumary =",
        "unknown-key",
    ),
    Broken(
        "unknown-exercise-key",
        _replace("lesson.toml", 'reference = "x + y"', 'refrence = "x + y"'),
        "lesson.toml",
        b"refrence =",
        "unknown-key",
    ),
    Broken(
        "unknown-verify-key",
        _replace("lesson.toml", "interpreter = [", "interpeter = [{ n = 3 }]\ninterpreter = ["),
        "lesson.toml",
        b"interpeter =",
        "unknown-key",
    ),
    Broken(
        "unknown-quiz-key",
        _replace("quiz.toml", "prompt = {", "promt = { en = 'x', ja = 'x' }\nprompt = {"),
        "quiz.toml",
        b"promt =",
        "unknown-key",
    ),
    Broken(
        "quiz-wrong-type",
        _replace("quiz.toml", "correct = true", 'correct = "yes"'),
        "quiz.toml",
        b'correct = "yes"',
        "wrong-type",
    ),
    Broken("quiz-two-correct", _quiz_second_correct, "quiz.toml", b"[[question]]", "one-correct"),
    Broken(
        "unknown-dtype",
        _replace("lesson.toml", 'dtypes = ["float32"]', 'dtypes = ["float33"]'),
        "lesson.toml",
        b"float33",
        "unknown-choice",
    ),
]

#: The duplicate number is its own case: a second folder with the good lesson's number, sorted after it.
DUPLICATE = "11-zz-duplicate"


def make_lessons(root: Path, cases: list[Broken], number: int = 12) -> dict[str, Path]:
    """The good lesson 11 plus each case as lesson `number`, `number + 1`, …; returns case name -> folder."""
    root.mkdir(parents=True, exist_ok=True)
    shutil.copytree(GOOD, root / GOOD.name)
    folders = {}
    for offset, case in enumerate(cases):
        n = number + offset
        folder = root / f"{n:02d}-broken-{case.name}"
        shutil.copytree(GOOD, folder)
        meta = folder / "lesson.toml"
        meta.write_text(
            meta.read_text(encoding="utf-8")
            .replace("number = 11", f"number = {n}")
            .replace("L11.", f"L{n}."),
            encoding="utf-8",
        )
        case.breaks(folder)
        folders[case.name] = folder
    return folders


def make_duplicate(root: Path) -> Path:
    folder = root / DUPLICATE
    shutil.copytree(GOOD, folder)
    return folder


def expected_location(case: Broken, folder: Path) -> tuple[Path, int]:
    """Where the problem must point: the file, and the line holding the marker (1: the whole file)."""
    path = folder / case.file if case.file else folder
    if case.marker is None:
        return path, 1
    for number, line in enumerate(path.read_bytes().splitlines(), 1):
        if case.marker in line:
            return path, number
    raise AssertionError(f"{case.name}: marker {case.marker!r} not in {path}")
