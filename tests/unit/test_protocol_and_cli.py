"""Protocol encoding, exit-status naming, and the CLI's parsing (no worker needed)."""

import json
import signal

import pytest

from tritonlab import cli
from tritonlab.engine import protocol
from tritonlab.engine.client import _learner_line, describe_exit


def test_encode_handles_nan_and_inf():
    line = protocol.encode({"a": float("nan"), "b": [float("inf"), -float("inf")], "c": 1.5})
    assert line.endswith(b"\n")
    assert protocol.decode(line) == {"a": "nan", "b": ["inf", "-inf"], "c": 1.5}


def test_decode_rejects_non_objects():
    with pytest.raises(ValueError):
        protocol.decode(b"[1, 2]")


@pytest.mark.parametrize(
    "code, text",
    [
        (-signal.SIGSEGV, "SIGSEGV"),
        (-signal.SIGABRT, "SIGABRT"),
        (-signal.SIGKILL, "SIGKILL"),
        (3, "exit code 3"),
    ],
)
def test_describe_exit(code, text):
    assert describe_exit(code).startswith(text)


def test_learner_line_from_faulthandler_and_traceback():
    fault = (
        "Fatal Python error: Segmentation fault\n\nCurrent thread 0x01 (most recent call first):\n"
        '  File "/x/learner.py", line 7 in add\n  File "/x/learner.py", line 3 in outer\n'
    )
    assert _learner_line(fault, {"file": "/x/learner.py"}) == 7
    tb = (
        'Traceback (most recent call last):\n  File "/x/learner.py", line 3, in outer\n'
        '  File "/x/learner.py", line 9, in add\n'
    )
    assert _learner_line(tb, {"file": "/x/learner.py"}) == 9
    assert _learner_line("nothing here", {"file": "/x/learner.py"}) is None


def test_bad_flag_exits_2(capsys):
    with pytest.raises(SystemExit) as exc:
        cli.main(["verify", "5", "--bogus"])
    assert exc.value.code == 2


def test_unknown_exercise_is_a_usage_error(capsys):
    assert cli.main(["verify", "99"]) == 2
    assert "no lesson" in capsys.readouterr().err


def test_file_and_solution_are_exclusive():
    with pytest.raises(SystemExit) as exc:
        cli.main(["verify", "5", "--file", "x.py", "--solution"])
    assert exc.value.code == 2


def test_missing_file_is_a_usage_error(capsys, tmp_path):
    assert cli.main(["verify", "5", "--file", str(tmp_path / "nope.py")]) == 2


def test_list_json_has_lessons(capsys):
    assert cli.main(["list", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert any(lesson["number"] == 5 for lesson in data["lessons"])


def test_quiz_scripted_answers(capsys):
    from tritonlab.content.loader import load_catalog

    lesson = next((les for les in load_catalog().lessons if les.quiz), None)
    if lesson is None:
        pytest.skip("no lesson has a quiz yet")
    from tritonlab.quiz import choice_order

    def letters(
        want: bool,
    ) -> str:  # the letters as this learner sees them (choices are shuffled per learner)
        shown = ([q.choices[i].correct for i in choice_order(lesson.id, q)] for q in lesson.quiz)
        return ",".join("abcdefgh"[flags.index(want)] for flags in shown)

    right = letters(True)
    assert cli.main(["quiz", str(lesson.number), "--answers", right, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == data["total"] == len(lesson.quiz)
    assert [q["right_choice"] for q in data["questions"]] == right.split(",")
    wrong = letters(False)
    assert cli.main(["quiz", str(lesson.number), "--answers", wrong, "--json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["score"] == 0 and all(q["explanation"] for q in data["questions"])


def test_replay_picks_the_small_failing_gpu_case_and_skips_huge_ones():
    from tritonlab.engine.replay import _failing_case, needs_replay

    def result(n):
        return {
            "backend": "gpu",
            "passed": False,
            "cases": [
                {
                    "name": "ok",
                    "passed": True,
                    "params": {"n": 10},
                    "dtype": "float32",
                    "seed": 0,
                    "kwargs": {},
                    "diagnoses": [],
                },
                {
                    "name": "bad",
                    "passed": False,
                    "params": {"n": n},
                    "dtype": "float16",
                    "seed": 1,
                    "kwargs": {},
                    "diagnoses": [{"kind": "oob", "message": "guard changed"}],
                },
            ],
        }

    assert needs_replay(result(97))
    assert _failing_case(result(97)) == {"params": {"n": 97}, "dtype": "float16", "seed": 1, "kwargs": {}}
    assert _failing_case(result(16_777_216)) is None  # too big for the interpreter: use its own cases
    assert not needs_replay({"backend": "interpreter", "cases": result(97)["cases"]})


def test_there_is_no_phantom_autotune_op():
    """`autotune` was listed as a worker op with no task behind it ("internal error in the lab"): it is
    refused as an unknown request now, like any other name, while the real ops still dispatch."""
    from tritonlab.engine import worker

    assert "autotune" not in worker.OPS
    refused = worker.handle("autotune", {}, ctx=None)
    assert refused["error"]["kind"] == "usage" and "autotune" in refused["error"]["message"]
    assert worker.handle("ping", {}, ctx=None)["pong"] is True
    assert set(worker.OPS) == {"verify", "run", "bench", "ir", "doctor", "profile"}
    for op in worker.OPS:  # every op has a task module behind it
        assert __import__(f"tritonlab.engine.tasks.{op}", fromlist=["handle"]).handle


def test_open_loads_the_lessons_once(monkeypatch):
    """`tritonlab open 5/add` loaded every lesson twice (0.1 s each on the first paint's path): once to refuse an
    unknown exercise before the screen opens, once more in the app. The app now gets the CLI's catalog."""
    from tritonlab.app import main as app_main
    from tritonlab.content import loader

    loads: list[object] = []
    load = loader.load_catalog

    def counting(*args, **kwargs):
        catalog = load(*args, **kwargs)
        loads.append(catalog)
        return catalog

    given: dict = {}
    monkeypatch.setattr(loader, "load_catalog", counting)
    monkeypatch.setattr(app_main, "run_app", lambda **kwargs: given.update(kwargs) or 0)
    assert cli.main(["open", "5/add", "--lang", "en"]) == 0
    assert len(loads) == 1 and given["catalog"] is loads[0] and given["exercise"] == "5/add"
