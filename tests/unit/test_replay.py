"""When a GPU run goes wrong without a fault (NaN, unwritten, mismatch), the exact small case is replayed on
the interpreter's bounds checker, and an out-of-bounds access it finds is named on that case."""

import numpy as np
import pytest

from tritonlab.engine import interpreter_support, replay


def gpu_result(kind: str, params: dict) -> dict:
    return {
        "backend": "gpu",
        "passed": False,
        "error": None,
        "summary": "1/2 cases pass",
        "cases": [
            {
                "name": "ok",
                "params": {"n": 1},
                "dtype": "float32",
                "seed": 0,
                "kwargs": {},
                "passed": True,
                "diagnoses": [],
            },
            {
                "name": "bad",
                "params": params,
                "dtype": "float16",
                "seed": 1,
                "kwargs": {},
                "passed": False,
                "diagnoses": [{"kind": kind}],
            },
        ],
    }


@pytest.fixture
def calls(monkeypatch):
    seen = []

    def fake(args, timeout=120.0, case=None, exact_only=False, client=None):
        seen.append({"case": case, "exact_only": exact_only})
        return {"backend": "interpreter", "line": 31, "message": "load of 'a_ptr' out of bounds"}

    monkeypatch.setattr(replay, "replay_on_interpreter", fake)
    return seen


def test_a_nan_on_the_gpu_replays_that_case_and_names_the_line(calls):
    result = replay.with_replay(gpu_result("nan", {"M": 17, "N": 33, "K": 65}), {"exercise": "9/matmul"})
    assert calls == [
        {
            "case": {"params": {"M": 17, "N": 33, "K": 65}, "dtype": "float16", "seed": 1, "kwargs": {}},
            "exact_only": True,
        }
    ]
    bad = result["cases"][1]
    assert bad["diagnoses"][0]["kind"] == "oob" and bad["diagnoses"][0]["line"] == 31
    assert result["cases"][0]["diagnoses"] == []
    assert "line 31" in result["summary"]
    assert result["passed"] is False


def test_a_large_failing_case_is_not_replayed(calls):
    result = replay.with_replay(gpu_result("mismatch", {"n": 1 << 24}), {"exercise": "5"})
    assert calls == []
    assert "replay" not in result


def test_a_guard_hit_is_replayed_with_fallback_to_the_interpreter_cases(calls):
    result = gpu_result("oob", {"n": 1000})
    replay.with_replay(result, {"exercise": "5"})
    assert calls and calls[0]["exact_only"] is False
    assert result["cases"][1]["diagnoses"][0]["line"] == 31


def test_interpreter_results_are_left_alone(calls):
    result = dict(gpu_result("nan", {"n": 10}), backend="interpreter")
    assert replay.with_replay(result, {"exercise": "5"}) is result and calls == []


class FakeHandle:
    def __init__(self, data):
        self.data = data


class FakeTensor:
    def __init__(self, data):
        self.handle = FakeHandle(np.asarray(data))


def test_scalar_index_accepts_a_one_element_array_and_refuses_a_block():
    assert interpreter_support._scalar_index(FakeTensor([7])) == 7
    assert interpreter_support._scalar_index(FakeTensor(np.int32(5))) == 5
    with pytest.raises(ValueError):
        interpreter_support._scalar_index(FakeTensor([1, 2]))


def test_range_over_a_scalar_argument_works_on_the_interpreter():
    """The numpy >= 2.4 trap: `range(0, K, BLOCK_K)` in a kernel (run in a worker, where the repair is
    installed)."""
    from tritonlab.engine.client import WorkerClient

    worker = WorkerClient(backend="interpreter")
    try:
        result = worker.request(
            "verify",
            {
                "exercise": "9/matmul",
                "solution": True,
                "cases": [{"params": {"M": 5, "N": 7, "K": 70}, "dtype": "float32"}],
            },
            timeout=120,
        )
    finally:
        worker.close()
    assert result["passed"], result.get("summary") or result.get("error")


class RecordingClient:
    """An interpreter worker stand-in: answers each request with the next canned reply, never closed by
    replay."""

    def __init__(self, *replies):
        self.replies = list(replies)
        self.requests = []
        self.closed = False

    def request(self, op, args=None, timeout=60.0, on_event=None):
        self.requests.append(dict(args or {}))
        return self.replies.pop(0)

    def close(self):
        self.closed = True


def test_a_given_replay_client_is_used_and_kept_warm():
    oob = {"error": {"kind": "oob", "line": 12, "message": "store out of bounds"}, "cases": []}
    client = RecordingClient(oob)
    result = replay.with_replay(gpu_result("oob", {"n": 1000}), {"exercise": "5"}, client=client)
    assert [r.get("cases") for r in client.requests] == [
        [{"params": {"n": 1000}, "dtype": "float16", "seed": 1, "kwargs": {}}]
    ]
    assert client.closed is False
    assert result["replay"]["line"] == 12


def test_a_cancelled_replay_does_not_start_another_run():
    client = RecordingClient({"error": {"kind": "cancelled", "message": "cancelled"}, "cases": []})
    result = replay.with_replay(gpu_result("oob", {"n": 1000}), {"exercise": "5"}, client=client)
    assert len(client.requests) == 1, (
        "after a cancel the fallback run on the interpreter's own cases must not start"
    )
    assert result["replay"]["error"]["kind"] == "cancelled"
    assert result["passed"] is False


def gpu_pass() -> dict:
    result = gpu_result("mismatch", {"n": 10})
    result["passed"] = True
    result["cases"][1].update(passed=True, diagnoses=[])
    return result


COPIED = {"kind": "copied-answer", "entry": "add", "kernel": "copy_kernel", "argument": "src_ptr"}


def test_the_audit_withdraws_a_gpu_pass_whose_kernel_only_copied_the_answer():
    """A copy kernel handed x and y that it never loads passes on a GPU (no loads are seen there); the
    interpreter records which storages each launch loaded, and the audit of the pass says so."""
    client = RecordingClient({"error": None, "cases": [{"passed": False, "diagnoses": [dict(COPIED)]}]})
    result = replay.with_replay(gpu_pass(), {"exercise": "5"}, client=client)
    assert result["passed"] is False and replay.audit_state(result) == "found"
    audit = result["cases"][-1]
    assert audit["kind"] == "copy-audit" and audit["diagnoses"][0]["kind"] == "copied-answer"
    from tritonlab.present.verify import audit_line, case_name

    assert "copy_kernel" in audit_line(dict(result, audit={"state": "found"}), "en")
    assert case_name(audit, "ja") == "答えのコピー(インタプリタで確認)"


def test_a_clean_audit_leaves_the_gpu_pass_alone():
    client = RecordingClient({"error": None, "cases": [{"passed": True, "diagnoses": []}]})
    result = replay.with_replay(gpu_pass(), {"exercise": "5"}, client=client)
    assert result["passed"] is True and replay.audit_state(result) == "clean"
    assert all(c.get("kind") != "copy-audit" for c in result["cases"])


UNWRITTEN = {"kind": "unwritten", "message": "3 elements never written", "count": 3}


def interpreter_failure(*diagnoses: dict, error=None) -> dict:
    return {
        "passed": False,
        "error": error,
        "cases": [
            {"name": "M=1 · float16", "passed": True, "diagnoses": []},
            {
                "name": "M=63, N=129 · float16 · @autotune=smallest",
                "params": {"M": 63, "N": 129},
                "dtype": "float16",
                "seed": 4,
                "kwargs": {"@autotune": "smallest"},
                "passed": False,
                "diagnoses": list(diagnoses),
            },
        ],
    }


def test_the_audit_withdraws_a_gpu_pass_that_the_interpreters_own_cases_fail():
    """An autotuned matmul whose grid swaps BLOCK_M and BLOCK_N passes every GPU case (the autotuner happened
    to pick configs where that is harmless: eleventh session, H200); the interpreter pins the smallest config
    and finds rows never written. The audit withdraws the pass and says which case, in both languages."""
    client = RecordingClient(interpreter_failure(dict(UNWRITTEN)))
    result = replay.with_replay(gpu_pass(), {"exercise": "10/autotune-matmul"}, client=client)
    assert result["passed"] is False and replay.audit_state(result) == "found"
    audit = result["cases"][-1]
    assert audit["kind"] == "interp-audit" and audit["diagnoses"][0]["kind"] == "unwritten"
    assert audit["kwargs"] == {"@autotune": "smallest"} and audit["seed"] == 4
    assert "M=63, N=129" in result["summary"] and "never written" in result["summary"]
    from tritonlab.present.verify import audit_line, case_name

    assert case_name(audit, "en") == "M=63, N=129 · float16 · @autotune=smallest (on the interpreter)"
    assert case_name(audit, "ja").endswith("(インタプリタ)")
    assert "withdrew the pass" in audit_line(dict(result, audit={"state": "found"}), "en")


def test_the_audit_keeps_a_gpu_pass_when_the_interpreter_only_misses_by_its_own_arithmetic_or_errs():
    """A near miss on the interpreter is its arithmetic, not the learner's; an interpreter error or timeout
    leaves the audit incomplete, never a withdrawal."""
    near = dict(UNWRITTEN, kind="mismatch", near_miss=1.6)
    result = replay.with_replay(
        gpu_pass(), {"exercise": "9"}, client=RecordingClient(interpreter_failure(near))
    )
    assert result["passed"] is True and replay.audit_state(result) == "clean"
    assert all(c.get("kind") != "interp-audit" for c in result["cases"])
    timed = interpreter_failure(error={"kind": "timeout", "message": "no answer within 120 s"})
    result = replay.with_replay(gpu_pass(), {"exercise": "9"}, client=RecordingClient(timed))
    assert result["passed"] is True and replay.audit_state(result) == "incomplete"
    skipped = dict(interpreter_failure(dict(UNWRITTEN)), skipped={"kind": "skipped", "missing": ["tma"]})
    result = replay.with_replay(gpu_pass(), {"exercise": "13"}, client=RecordingClient(skipped))
    assert result["passed"] is True


def test_the_audit_withdraws_a_gpu_pass_whose_wrapper_the_interpreters_reject_catches():
    """A device check by `x.is_cuda != b.is_cuda` refuses the GPU's pair (cuda beside cpu) and passes every GPU
    case (round 6 on the H200); the interpreter's pair (cpu beside meta) is accepted. The audit withdraws the
    pass; the same reject refused on the interpreter leaves it standing."""
    accepted = {"kind": "validation", "message": "the wrapper accepted x and b on different devices"}
    reject = {"name": "rejects device mismatch", "kind": "reject", "why": {"en": "x and b differ"}}
    wrong = {
        "passed": False,
        "error": None,
        "cases": [{"name": "M=4 · float32", "passed": True, "diagnoses": []}],
    }
    wrong["cases"].append(dict(reject, passed=False, diagnoses=[accepted]))
    result = replay.with_replay(gpu_pass(), {"exercise": "7/bias-add"}, client=RecordingClient(wrong))
    assert result["passed"] is False and replay.audit_state(result) == "found"
    audit = result["cases"][-1]
    assert audit["kind"] == "interp-audit" and audit["name"] == "rejects device mismatch"
    assert "accepted x and b" in result["summary"]
    right = {"passed": True, "error": None, "cases": [dict(reject, passed=True, diagnoses=[])]}
    result = replay.with_replay(gpu_pass(), {"exercise": "7/bias-add"}, client=RecordingClient(right))
    assert result["passed"] is True and replay.audit_state(result) == "clean"


CROSS_READ = {
    "kind": "cross-program-read",
    "kernel": "rms_norm_bwd_kernel",
    "argument": "partial_dw_ptr",
    "count": 48,
    "reader": [3],
    "writer": [0],
    "line": 61,
    "store_line": 55,
    "stored": "before",
    "message": "program [3] loads 48 elements of partial_dw_ptr that program [0] stores in the same launch",
}


def replayed_case(*diagnoses: dict) -> dict:
    """The interpreter's answer to the replay of the GPU's case: values right (programs ran in order), and
    what its race records found."""
    case = {"name": "bad", "params": {"M": 17, "N": 33}, "dtype": "float16", "seed": 1, "kwargs": {}}
    return {"passed": False, "error": None, "cases": [dict(case, passed=False, diagnoses=list(diagnoses))]}


@pytest.mark.parametrize("symptom", ["nan", "nondeterministic", "mismatch"])
def test_a_race_the_replay_finds_is_named_on_the_gpu_case_it_explains(symptom):
    """The last program of a launch summing every program's partial row: on an H100 (2026-12-05) the GPU
    showed NaN alone, on an H200 NaN and two runs that differ — symptoms. The replay of that case on the
    interpreter records the cross-program read with both lines; the GPU case now says so, first."""
    client = RecordingClient(replayed_case(dict(CROSS_READ)))
    result = replay.with_replay(gpu_result(symptom, {"M": 17, "N": 33}), {"exercise": "12"}, client=client)
    assert [r.get("cases") for r in client.requests] == [
        [{"params": {"M": 17, "N": 33}, "dtype": "float16", "seed": 1, "kwargs": {}}]
    ]
    bad = result["cases"][1]
    assert [d["kind"] for d in bad["diagnoses"]] == ["cross-program-read", symptom]
    assert bad["diagnoses"][0]["replayed"] is True and bad["diagnoses"][0]["line"] == 61
    assert result["cases"][0]["diagnoses"] == [] and result["passed"] is False
    assert "likely cause" in result["summary"] and "partial_dw_ptr" in result["summary"]
    from tritonlab.present.verify import summary

    en, ja = summary(result, "en"), summary(result, "ja")
    assert "replaying this case on the interpreter" in en and "line 61" in en and "line 55" in en
    assert "インタプリタで再実行" in ja and "61 行目" in ja


def test_a_replay_without_a_race_adds_nothing_to_the_gpu_case():
    """The false-positive side: the replay's own failure is a plain mismatch (or nothing at all), so the GPU
    case keeps its symptom alone and no cause is invented."""
    mismatch = {"kind": "mismatch", "message": "values differ", "count": 3}
    for answer in (replayed_case(mismatch), {"passed": True, "error": None, "cases": [{"passed": True}]}):
        result = replay.with_replay(
            gpu_result("nan", {"M": 17, "N": 33}), {"exercise": "12"}, client=RecordingClient(answer)
        )
        assert [d["kind"] for d in result["cases"][1]["diagnoses"]] == ["nan"]
        assert "likely cause" not in result["summary"]


def test_a_guard_hit_takes_the_interpreters_account_of_the_access(monkeypatch):
    """Probe on the H100 (twenty-third session): a store past the end with `mask = offsets <= n` showed on
    the GPU only as memory beside the output overwritten; the replay named the line, but its own account
    (the pointer, the mask that let the lanes through) was dropped. It now travels with the diagnosis and the
    sentence says it, in both languages; without a replay detail the guard sentence is unchanged."""
    from tritonlab.present.diagnoses import describe

    detail = {
        "access": "store",
        "op": "store",
        "arg": "out_ptr",
        "program_id": [0, 0, 0],
        "lanes": 1,
        "span": [1, 1],
        "extent": 1,
        "numel": 1,
        "reason": "past_end",
        "line": 11,
        "mask": "mask = offsets <= n_elements",
        "unbounded": [],
        "bounded": False,
    }

    def fake(args, timeout=120.0, case=None, exact_only=False, client=None):
        return {
            "backend": "interpreter",
            "line": 11,
            "message": "store to out_ptr out of bounds",
            "detail": detail,
        }

    monkeypatch.setattr(replay, "replay_on_interpreter", fake)
    result = gpu_result("oob", {"n": 1000})
    guard = {"kind": "oob", "access": "store", "arg": "out", "side": "after", "changed": 1, "name": "out"}
    result["cases"][1]["diagnoses"] = [guard]
    replay.with_replay(result, {"exercise": "5"})
    diag = result["cases"][1]["diagnoses"][0]
    assert diag["line"] == 11 and diag["detail"]["mask"] == "mask = offsets <= n_elements"
    en, ja = describe(diag, "en"), describe(diag, "ja")
    assert "was overwritten" in en and "replayed on the interpreter" in en
    assert "offsets <= n_elements" in en and "offsets <= n_elements" in ja
    assert "インタプリタで再実行" in ja
    plain = describe(guard | {"detail": None}, "en")
    assert "replayed" not in plain and "was overwritten" in plain


UNREAD = {
    "kind": "mismatch",
    "cause": "input-unread",
    "line": 16,
    "inputs": ["y"],
    "message": "your kernels never loaded y",
}
PER_CHUNK = {
    "kind": "mismatch",
    "cause": "per-chunk-scale",
    "line": 40,
    "message": "each chunk scaled by its own max",
}


def test_a_bare_gpu_mismatch_takes_the_cause_the_replay_names():
    """The GPU keeps no load records: y loaded through x_ptr is "every element is wrong" there. The replay of
    that case names the cause and the line; it goes first, marked as the interpreter's, the GPU's own after."""
    result = gpu_result("mismatch", {"n": 100})
    result["cases"][1]["diagnoses"] = [{"kind": "mismatch", "cause": "all-wrong"}]
    result = replay.with_replay(
        result, {"exercise": "5/add"}, client=RecordingClient(replayed_case(dict(UNREAD)))
    )
    diagnoses = result["cases"][1]["diagnoses"]
    assert [d.get("cause") for d in diagnoses] == ["input-unread", "all-wrong"]
    assert diagnoses[0]["replayed"] is True and diagnoses[0]["line"] == 16
    assert "likely cause" in result["summary"]


def test_a_gpu_case_that_already_names_its_cause_keeps_it():
    """The false-cause side: where the GPU's own judge named a cause or a line, the replay does not put the
    interpreter's reading in front of it."""
    result = gpu_result("mismatch", {"n": 100})
    own = {"kind": "mismatch", "cause": "size-threshold", "line": 12}
    result["cases"][1]["diagnoses"] = [dict(own)]
    result = replay.with_replay(
        result, {"exercise": "5/add"}, client=RecordingClient(replayed_case(dict(UNREAD)))
    )
    assert result["cases"][1]["diagnoses"] == [own]
    assert "likely cause" not in result["summary"]


@pytest.mark.parametrize("found, kept", [(UNREAD, True), (PER_CHUNK, False)])
def test_on_a_bf16_case_only_a_cause_from_the_load_records_is_taken(found, kept):
    """The interpreter's bf16 arithmetic is not the GPU's (a bf16 x * x of 30.875 gave 2.35e17): a cause read
    from its values (a per-chunk scale) is not carried onto a bf16 GPU case; one read from which storage a
    launch loaded is."""
    result = gpu_result("mismatch", {"n": 100})
    result["cases"][1]["dtype"] = "bfloat16"
    answer = replayed_case(dict(found))
    answer["cases"][0]["dtype"] = "bfloat16"
    result = replay.with_replay(result, {"exercise": "8"}, client=RecordingClient(answer))
    causes = [d.get("cause") for d in result["cases"][1]["diagnoses"]]
    assert causes == ([found["cause"], None] if kept else [None])
