"""A timeout says how long the learner's code had and which process was stopped.

The judge answers a runner that outlived its deadline itself (`verify._runner_problem`): that error carried no
`timeout_s` (the CLI printed "no answer within ? s") and its message said "The runner was stopped" while the
sentence shown said "The worker was stopped and will restart" — the worker stays up then. The worker now gives
that error the request's seconds and `stopped: "runner"`; the client's own timeout (it kills the worker) says
`stopped: "worker"`."""

from __future__ import annotations

from tritonlab.app.formatting import restart_notice
from tritonlab.engine.judge import Outcome
from tritonlab.engine.tasks.verify import _runner_problem
from tritonlab.engine.worker import runner_timeout_facts
from tritonlab.present.diagnoses import describe


def _runner_timeout() -> dict:
    outcome = Outcome()
    outcome.timed_out = True
    problem = _runner_problem(outcome, [], "", "/tmp/hang.py")
    assert problem is not None and problem["kind"] == "timeout"
    return {"exercise": "5/add", "error": problem}


def test_a_runner_timeout_carries_the_requests_seconds_and_who_was_stopped():
    result = _runner_timeout()
    runner_timeout_facts(result, 8.0)
    err = result["error"]
    assert err["timeout_s"] == 8.0
    assert err["stopped"] == "runner"
    assert "within 8 s" in err["message"]
    assert "worker stays up" in err["message"] and "will restart" not in err["message"]
    shown = describe(err, "en")
    assert "within 8 s" in shown and "?" not in shown
    assert "8 秒以内" in describe(err, "ja")


def test_the_app_does_not_say_the_worker_restarted_after_a_runner_timeout():
    result = _runner_timeout()
    runner_timeout_facts(result, 8.0)
    assert restart_notice(result["error"], "en", None) is None
    assert restart_notice(result["error"], "ja", None) is None
    worker_killed = {"kind": "timeout", "timeout_s": 8.0, "stopped": "worker", "message": "…", "line": None}
    assert restart_notice(worker_killed, "en", None) == "worker restarted after a timeout"


def test_the_clients_own_timeout_and_other_results_are_left_alone():
    worker_killed = {"error": {"kind": "timeout", "timeout_s": 3.0, "stopped": "worker", "message": "m"}}
    runner_timeout_facts(worker_killed, 8.0)
    assert worker_killed["error"] == {
        "kind": "timeout",
        "timeout_s": 3.0,
        "stopped": "worker",
        "message": "m",
    }
    crash = {"error": {"kind": "crash", "message": "m"}}
    runner_timeout_facts(crash, 8.0)
    assert crash == {"error": {"kind": "crash", "message": "m"}}
    passed: dict = {"passed": True, "error": None}
    runner_timeout_facts(passed, 8.0)
    assert passed == {"passed": True, "error": None}


def test_the_sentence_says_which_process_was_stopped_in_both_languages():
    """The shown sentence follows `stopped`: a runner timeout keeps the worker (the next run starts the code
    afresh); the client's own timeout, and an old result without the fact, say the worker restarts."""
    result = _runner_timeout()
    runner_timeout_facts(result, 8.0)
    en, ja = describe(result["error"], "en"), describe(result["error"], "ja")
    assert "within 8 s" in en and "next run starts it afresh" in en and "worker was stopped" not in en
    assert "8 秒以内" in ja and "新しいプロセス" in ja and "ワーカーを停止" not in ja
    worker = {"kind": "timeout", "timeout_s": 120.0, "stopped": "worker"}
    assert "The worker was stopped and will restart." in describe(worker, "en")
    assert "ワーカーを停止しました" in describe(worker, "ja")
    assert "worker was stopped" in describe({"kind": "timeout", "timeout_s": 5}, "en")
