"""The lesson loader: valid lessons load, broken ones are reported as path:line and never stop the rest."""

import textwrap
from pathlib import Path

import pytest

from tritonlab.content.loader import load_catalog
from tritonlab.paths import kernels_dir, lessons_dir

GOOD = textwrap.dedent("""
    format = 1
    number = 42
    title = { en = "Test", ja = "テスト" }

    [outcomes."L42.1"]
    sections = { en = ["A"], ja = ["あ"] }
    activities = ["exercise:add"]

    [[exercise]]
    id = "add"
    title = { en = "Add", ja = "加算" }
    starter = "add.py"
    solution = "vector_add.py"
    entry = "add"
    reference = "x + y"
    hints = [{ en = "h", ja = "ヒント" }, { en = "h2", ja = "ヒント2" }]
    [exercise.inputs.x]
    shape = ["n"]
    [exercise.inputs.y]
    shape = ["n"]
    [exercise.verify]
    dtypes = ["float32"]
    interpreter = [{ n = 7 }]
""")


def make_lesson(root: Path, name: str, toml: str, starter: str = "def add(x, y):\n    pass\n") -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "lesson.toml").write_text(toml, encoding="utf-8")
    (folder / "text.en.md").write_text("# A\n", encoding="utf-8")
    (folder / "text.ja.md").write_text("# あ\n", encoding="utf-8")
    (folder / "add.py").write_text(starter, encoding="utf-8")
    return folder


def test_shipped_lessons_load_without_problems():
    catalog = load_catalog()
    assert catalog.lessons, "no lessons shipped"
    lesson5 = catalog.lesson("5")
    assert lesson5 is not None and lesson5.exercise("add") is not None


def test_exercise_references_resolve():
    catalog = load_catalog()
    ex = catalog.exercise("5")
    assert ex.key == "05-vector-add/add"
    assert catalog.exercise("05").key == ex.key
    assert catalog.exercise("05-vector-add/add").key == ex.key
    assert catalog.exercise("vector-add/add").key == ex.key
    with pytest.raises(KeyError):
        catalog.exercise("99")
    with pytest.raises(KeyError):
        catalog.exercise("5/nope")


def test_good_lesson_loads(tmp_path):
    make_lesson(tmp_path, "42-test", GOOD)
    catalog = load_catalog(tmp_path, kernels_dir())
    assert not catalog.problems, [str(p) for p in catalog.problems]
    exercise = catalog.exercise("42")
    assert [i.name for i in exercise.inputs] == ["x", "y"]
    assert exercise.verify.interpreter == [{"n": 7}]
    assert exercise.verify.gpu == [{"n": 7}]  # falls back to the interpreter cases


@pytest.mark.parametrize(
    "mutation, expected_line, code, fragment",
    [
        (lambda s: s.replace("format = 1", "format = 2"), 2, "format", "format must be 1"),
        (
            lambda s: s.replace("number = 42", "number = 41"),
            3,
            "number-mismatch",
            "does not match the folder",
        ),
        (
            lambda s: s.replace('starter = "add.py"', 'starter = "missing.py"'),
            13,
            "file-not-found",
            "exercise[add].starter: missing.py not found",
        ),
        (
            lambda s: s.replace('solution = "vector_add.py"', 'solution = "nope.py"'),
            14,
            "file-not-found",
            "not found in kernels",
        ),
        (
            lambda s: s.replace('reference = "x + y"', 'reference = "x +"'),
            16,
            "not-an-expression",
            "not a Python expression",
        ),
        (lambda s: s.replace('id = "add"', 'id = "Add Me"'), 11, "bad-id", "must be lowercase"),
        (
            lambda s: s.replace('dtypes = ["float32"]', 'dtypes = ["float33"]'),
            23,
            "unknown-choice",
            "float33 is not one of float32",
        ),
        (
            lambda s: s.replace("interpreter = [{ n = 7 }]", "interpreter = []"),
            24,
            "empty-cases",
            "at least one case",
        ),
        (
            lambda s: s.replace('title = { en = "Test", ja = "テスト" }', 'title = { en = "Test" }'),
            4,
            "missing-key",
            "title.ja is required",
        ),
        (lambda s: s.replace("[exercise.verify]", "[exercise.verify\n"), 22, "bad-toml", "invalid TOML"),
        # the schema: unknown keys and wrong types, each at its own line
        (
            lambda s: s.replace('reference = "x + y"', 'refrence = "x + y"'),
            16,
            "unknown-key",
            "unknown key exercise[add].refrence",
        ),
        (
            lambda s: s.replace('dtypes = ["float32"]', 'dtypes = ["float32"]\nseed = [1]'),
            24,
            "unknown-key",
            "exercise[add].verify.seed",
        ),
        (
            lambda s: s.replace("number = 42", 'number = "42"'),
            3,
            "wrong-type",
            "number must be an integer, not text",
        ),
        (
            lambda s: s.replace('dtypes = ["float32"]', "dtypes = 5"),
            23,
            "wrong-type",
            "exercise[add].verify.dtypes must be a list, not an integer",
        ),
        (lambda s: s.replace('dtypes = ["float32"]', "dtypes = []"), 23, "empty", "needs at least one entry"),
        (
            lambda s: s.replace('[exercise.inputs.x]\nshape = ["n"]', "[exercise.inputs.x]\nshape = 3"),
            19,
            "wrong-type",
            "exercise[add].inputs.x.shape must be a list",
        ),
        (
            lambda s: s.replace('ja = "加算"', 'ja = "  "'),
            12,
            "blank-text",
            "exercise[add].title.ja is empty",
        ),
        (
            lambda s: s.replace("[exercise.verify]", "[[exercise.verify]]"),
            22,
            "wrong-type",
            "exercise[add].verify must be a table, not a list",
        ),
        (
            lambda s: s.replace(
                "[exercise.verify]", '[exercise.bench]\ntimed = "sideways"\n\n[exercise.verify]'
            ),
            23,
            "unknown-choice",
            "sideways is not one of forward",
        ),
        (
            lambda s: s.replace(
                "[exercise.verify]", '[exercise.bench]\ntimed = "backward"\n\n[exercise.verify]'
            ),
            23,
            "timed-needs-grads",
            "needs verify.grad_inputs",
        ),
        (
            lambda s: s.replace('[outcomes."L42.1"]', "[[outcomes]]"),
            6,
            "wrong-type",
            "outcomes must be a table",
        ),
    ],
)
def test_broken_lesson_reports_path_and_line(tmp_path, mutation, expected_line, code, fragment):
    make_lesson(tmp_path, "42-test", mutation(GOOD))
    make_lesson(tmp_path, "43-other", GOOD.replace("number = 42", "number = 43"))
    catalog = load_catalog(tmp_path, kernels_dir())
    assert [lesson.id for lesson in catalog.lessons] == ["43-other"], "the good lesson must still load"
    assert len(catalog.problems) >= 1
    problem = catalog.problems[0]
    assert problem.path.name == "lesson.toml"
    assert problem.code == code, str(problem)
    assert fragment in problem.message
    assert problem.line == expected_line, str(problem)
    assert str(problem).startswith(f"{problem.path}:{expected_line}: ")
    japanese = problem.text("ja")
    assert japanese != problem.message and "{" not in japanese.replace("{ atol", ""), japanese


def test_bad_folder_name_and_missing_files(tmp_path):
    make_lesson(tmp_path, "Lesson_X", GOOD)
    folder = make_lesson(tmp_path, "42-test", GOOD)
    (folder / "text.ja.md").unlink()
    catalog = load_catalog(tmp_path, kernels_dir())
    messages = sorted(p.message for p in catalog.problems)
    assert any("NN-slug" in m for m in messages)
    assert any("text.ja.md" in m for m in messages)
    assert catalog.lessons == []


def test_quiz_needs_exactly_one_correct_choice(tmp_path):
    folder = make_lesson(tmp_path, "42-test", GOOD)
    (folder / "quiz.toml").write_text(
        textwrap.dedent("""
        [[question]]
        id = "q1"
        prompt = { en = "?", ja = "？" }
        [[question.choice]]
        text = { en = "a", ja = "あ" }
        correct = true
        [[question.choice]]
        text = { en = "b", ja = "い" }
        correct = true
    """),
        encoding="utf-8",
    )
    catalog = load_catalog(tmp_path, kernels_dir())
    assert len(catalog.problems) == 1
    assert catalog.problems[0].path.name == "quiz.toml"
    assert "exactly one choice" in catalog.problems[0].message


def test_lessons_dir_points_at_the_repo_in_a_checkout():
    assert (lessons_dir() / "05-vector-add" / "lesson.toml").is_file()
    assert (kernels_dir() / "vector_add.py").is_file()


# ---- line numbers and words ---------------------------------------------------------------------


def test_key_lines_follow_headers_arrays_dotted_keys_and_multiline_strings():
    from tritonlab.content.toml_source import KeyLines

    text = textwrap.dedent('''\
        format = 1
        [outcomes."L1.1"]
        sections.en = ["A"]
        note = """
        fake = "not a key"
        """
        [[exercise]]
        id = "a"
        [exercise.verify]
        dtypes = ["float32"]
        [[exercise]]
        id = "b"
        [[exercise.reject]]
        name = "r"
        [exercise.verify]
        seeds = [0]
    ''')
    lines = KeyLines(text)
    assert lines.line_of(("format",)) == 1
    assert lines.line_of(("outcomes", "L1.1")) == 2
    assert lines.line_of(("outcomes", "L1.1", "sections", "en")) == 3
    assert lines.line_of(("outcomes", "L1.1", "fake")) == 2, "text inside a multi-line string is not a key"
    assert lines.line_of(("exercise", 0, "verify", "dtypes")) == 10
    assert lines.line_of(("exercise", 1, "id")) == 12
    assert lines.line_of(("exercise", 1, "reject", 0, "name")) == 14
    assert lines.line_of(("exercise", 1, "verify", "seeds", 0)) == 16, (
        "inside an inline array: the key's line"
    )
    assert lines.line_of(("exercise", 0, "verify", "seeds")) == 9, "not written: the nearest table that is"


def test_every_problem_code_has_english_and_japanese_with_the_same_values():
    import re
    import string

    from tritonlab.content.check import japanese_ratio
    from tritonlab.content.problems import LABELS, MESSAGES, TYPES

    for table in (MESSAGES, LABELS, TYPES):
        for code, words in table.items():
            assert set(words) == {"en", "ja"}, code
            fields = [
                {f for _, f, _, _ in string.Formatter().parse(words[lang]) if f} for lang in ("en", "ja")
            ]
            assert fields[0] == fields[1], f"{code}: en and ja need the same values"
            assert japanese_ratio(re.sub(r"\{[^}]*\}", "", words["ja"])) > 0.2, code
            assert japanese_ratio(words["en"]) == 0, code


def test_problem_words_follow_the_language_and_unknown_codes_do_not_crash():
    from tritonlab.content.model import Problem

    problem = Problem(
        Path("x/lesson.toml"), 3, "wrong-type", {"key": "number", "expected": "integer", "found": "text"}
    )
    assert str(problem) == "x/lesson.toml:3: number must be an integer, not text"
    assert problem.located("ja") == "x/lesson.toml:3: number は整数で書いてください（文字列になっています）"
    assert problem.to_dict("ja")["code"] == "wrong-type" and problem.to_dict()["values"]["key"] == "number"
    assert "no-such-code" in Problem(Path("p"), None, "no-such-code", {"a": 1}).text("ja")


def test_toml_errors_are_told_in_japanese_too(tmp_path):
    make_lesson(tmp_path, "42-test", GOOD.replace("[exercise.verify]", "[exercise.verify"))
    make_lesson(
        tmp_path, "43-other", GOOD.replace("number = 42", "number = 43").replace('id = "add"', 'id = "add')
    )
    problems = sorted(load_catalog(tmp_path, kernels_dir()).problems, key=lambda p: str(p.path))
    assert [p.code for p in problems] == ["bad-toml", "bad-toml"]
    assert problems[0].text("ja") == "TOML の書き方が正しくありません: テーブル宣言の末尾に ']' が必要です"
    assert problems[0].values["detail"] == "Expected ']' at the end of a table declaration"
    assert problems[1].text("ja").endswith("使えない文字 '\\n' があります"), problems[1].text("ja")
