"""The one door: Lab wires verify + replay, cancels both workers, removes its temp folders, returns typed
results."""

from __future__ import annotations

from tritonlab.engine.client import WorkerClient
from tritonlab.engine.lab import Lab, is_usage_error
from tritonlab.engine.results import Kind, RunResult, VerifyResult


class Fake:
    def __init__(self, results: dict, info: dict | None = None):
        self.results, self.info, self.requests, self.cancelled = results, info or {}, [], 0
        self.last_exit = None

    def request(self, op, args=None, timeout=60.0, on_event=None):
        self.requests.append((op, dict(args or {})))
        if on_event:
            on_event({"event": "progress", "case": 1, "total": 1, "name": "n=1"})
        return dict(self.results[op])

    def cancel(self):
        self.cancelled += 1

    def close(self):
        pass


GPU_PASS = {
    "exercise": "5",
    "backend": "gpu",
    "passed": True,
    "error": None,
    "summary": "all pass",
    "cases": [
        {
            "name": "n=8",
            "params": {"n": 8},
            "dtype": "float32",
            "seed": 0,
            "kwargs": {},
            "passed": True,
            "diagnoses": [],
        }
    ],
}
OOB = {
    "backend": "interpreter",
    "passed": False,
    "cases": [],
    "error": {"kind": "oob", "line": 11, "detail": {"access": "load", "arg": "x_ptr"}},
}


def test_a_gpu_pass_is_audited_by_the_replay_worker_and_comes_back_typed():
    kernel, replays = Fake({"verify": GPU_PASS}), Fake({"verify": OOB})
    events: list[dict] = []
    lab = Lab("gpu", client=kernel, replay_client=replays)
    result = lab.verify({"exercise": "5"}, on_progress=events.append)
    assert isinstance(result, VerifyResult)
    assert not result.passed and result.error is not None and result.error.known is Kind.OOB
    assert result.error.line == 11 and result.error.get("cause") == "audit"
    assert [op for op, _ in replays.requests] == ["verify"]  # a pass has no failing case: its own cases
    assert {"event": "progress", "stage": "replay"} in events
    assert lab.replay_worker is replays


def test_an_interpreter_result_is_not_replayed():
    kernel, replays = Fake({"verify": dict(GPU_PASS, backend="interpreter")}), Fake({"verify": OOB})
    result = Lab("interpreter", client=kernel, replay_client=replays).verify({"exercise": "5"})
    assert result.passed and replays.requests == []


def test_cancel_reaches_both_workers_and_skips_the_replay():
    kernel, replays = Fake({"verify": GPU_PASS}), Fake({"verify": OOB})
    lab = Lab("gpu", client=kernel, replay_client=replays)

    def cancel_midway(event):
        lab.cancel()

    kernel.request = lambda op, args=None, timeout=60.0, on_event=None: (  # type: ignore[method-assign]
        (on_event({"message": "x"}), dict(GPU_PASS))[1]
    )
    result = lab.verify({"exercise": "5"}, on_progress=cancel_midway)
    assert kernel.cancelled == 1 and replays.cancelled == 1
    assert replays.requests == [] and result.passed  # the GPU verdict stands; no replay after a cancel


def test_close_removes_the_temp_folders_and_can_be_called_twice():
    lab = Lab("interpreter")  # real clients: their temp folders exist from the start, no process yet
    folder = lab.client._dir
    replay_folder = lab._replayer()._dir
    assert folder.is_dir() and replay_folder.is_dir()
    lab.close()
    lab.close()
    assert not folder.exists() and not replay_folder.exists()
    assert isinstance(lab.client, WorkerClient)


def test_request_dispatches_by_op_and_flags_usage_errors():
    lab = Lab(
        "interpreter", client=Fake({"run": {"error": {"kind": "usage", "message": "no such exercise"}}})
    )
    result = lab.request("run", {"exercise": "99"})
    assert isinstance(result, RunResult) and is_usage_error(result)
    assert not is_usage_error(Lab("x", client=Fake({"run": {"error": None}})).request("run", {}))


# ---- the audit off the critical path -----------------------------------------------------------------------


class GatedFake(Fake):
    """An interpreter worker that answers only when the test opens the gate: proves who waits for whom."""

    def __init__(self, results: dict):
        super().__init__(results)
        import threading

        self.gate = threading.Event()

    def request(self, op, args=None, timeout=60.0, on_event=None):
        assert self.gate.wait(5), "the audit was never let through"
        return super().request(op, args, timeout, on_event)


def test_verify_with_audit_later_returns_the_gpu_verdict_before_the_audit_answers():
    import threading

    kernel, replays = Fake({"verify": GPU_PASS}), GatedFake({"verify": OOB})
    lab = Lab("gpu", client=kernel, replay_client=replays)
    got: list = []
    thread = threading.Thread(target=lambda: got.append(lab.verify({"exercise": "5"}, audit="later")))
    thread.start()
    thread.join(2)
    assert got, "verify waited for the interpreter audit"
    verdict = got[0]
    assert verdict.passed and verdict.audit == {"state": "pending"} and replays.requests == []
    assert verdict.to_json()["audit"] == {"state": "pending"}

    replays.gate.set()
    followed = lab.audit(verdict, {"exercise": "5"})
    assert not followed.passed and followed.error.known is Kind.OOB and followed.error.line == 11
    assert followed.audit == {"state": "found"}
    assert [op for op, _ in replays.requests] == ["verify"]


def test_a_clean_audit_keeps_the_pass_and_a_crashed_one_says_incomplete():
    clean = dict(OOB, passed=True, error=None)
    lab = Lab("gpu", client=Fake({"verify": GPU_PASS}), replay_client=Fake({"verify": clean}))
    verdict = lab.verify({"exercise": "5"}, audit="later")
    followed = lab.audit(verdict, {"exercise": "5"})
    assert followed.passed and followed.error is None and followed.audit == {"state": "clean"}

    class Broken(Fake):
        def request(self, *a, **k):
            raise OSError("interpreter worker died")

    lab = Lab("gpu", client=Fake({"verify": GPU_PASS}), replay_client=Broken({}))
    followed = lab.audit(lab.verify({"exercise": "5"}, audit="later"), {"exercise": "5"})
    assert followed.passed and followed.audit == {"state": "incomplete"}


def test_nothing_is_pending_on_the_interpreter_or_for_a_failure_and_audit_now_stays_inline():
    replays = Fake({"verify": OOB})
    interpreted = Fake({"verify": dict(GPU_PASS, backend="interpreter")})
    lab = Lab("interpreter", client=interpreted, replay_client=replays)
    verdict = lab.verify({"exercise": "5"}, audit="later")
    assert verdict.passed and verdict.audit is None and "audit" not in verdict.to_json()
    assert lab.audit(verdict, {"exercise": "5"}) is verdict and replays.requests == []

    failed = dict(GPU_PASS, passed=False, cases=[dict(GPU_PASS["cases"][0], passed=False)])
    lab = Lab("gpu", client=Fake({"verify": failed}), replay_client=Fake({"verify": OOB}))
    assert lab.verify({"exercise": "5"}, audit="later").audit is None

    lab = Lab("gpu", client=Fake({"verify": GPU_PASS}), replay_client=Fake({"verify": OOB}))
    inline = lab.request("verify", {"exercise": "5"})  # the default: the audit inside verify, as before
    assert not inline.passed and inline.audit is None
