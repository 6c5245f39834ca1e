"""Errors the engine made as English sentences now carry facts, and the learner reads them in their language:
under --lang ja they were quoted («…») or had "?" where a fact was missing. The English `message` is unchanged
(--json keeps it)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from tritonlab.app.formatting import restart_notice
from tritonlab.engine import worker
from tritonlab.engine.judge import Outcome
from tritonlab.present.diagnoses import describe


def _worded(err: dict) -> tuple[str, str]:
    en, ja = describe(err, "en"), describe(err, "ja")
    assert "«" not in ja and "?" not in ja and "?" not in en, (en, ja)
    return en, ja


class _Runner:
    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir


class _Pool:
    """A runner pool whose runner finishes its job ("done") without sending a result."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir

    def take(self) -> _Runner:
        return _Runner(self.workdir)

    def run(self, job, timeout, forward, runner=None) -> Outcome:
        outcome = Outcome()
        outcome.messages = [{"type": "done"}]
        return outcome


class _Ctx:
    backend = "interpreter"
    info: dict = {}

    def __init__(self, pool) -> None:
        self.pool = pool

    def progress(self, message: str, **extra) -> None:
        pass


def test_a_runner_that_gave_no_result_names_the_request(tmp_path):
    """It said "ワーカープロセスが終了しました: ?" (the crash sentence with no exit status): the worker had not died."""
    result = worker.delegate("run", {"exercise": "5", "solution": True}, _Ctx(_Pool(tmp_path)))
    err = result["error"]
    assert err["kind"] == "crash" and err["cause"] == "no-result" and err["op"] == "run", err
    assert err["message"] == "the runner gave no run result"
    en, ja = _worded(err)
    assert en.startswith("the process that runs your code ended without sending its run result"), en
    assert ja.startswith("コードを実行するプロセスが run の結果を送らずに終了したため"), ja
    assert "worker" not in en and "ワーカー" not in ja
    assert restart_notice(err, "ja", None) is None


def test_bench_out_of_memory_at_a_size(monkeypatch):
    """A bench row that ran out of GPU memory: "«out of GPU memory at this size»" under ja."""
    import torch

    from tritonlab.engine.tasks import bench

    loaded = SimpleNamespace(file="/tmp/learner.py", exercise=SimpleNamespace(), device=None)
    err = bench._failure(torch.cuda.OutOfMemoryError("CUDA out of memory. Tried to allocate 8 GiB"), loaded)
    assert err["kind"] == "runtime" and err["cause"] == "out-of-memory" and not err.get("inputs"), err
    en, ja = _worded(err)
    assert en == err["message"] == "out of GPU memory at this size"
    assert ja == "このサイズでは GPU メモリが足りません"

    def no_room(*args, **kwargs):
        raise torch.cuda.OutOfMemoryError("CUDA out of memory")

    monkeypatch.setattr(bench, "bench_inputs", no_room)
    row = bench._time_size(loaded, SimpleNamespace(dtype="float32"), {"n": 1 << 30}, None)
    err = row["error"]
    assert err["cause"] == "out-of-memory" and err["inputs"] is True, err
    en, ja = _worded(err)
    assert en == err["message"] == "out of GPU memory for the inputs at this size"
    assert ja == "このサイズでは入力を置くだけの GPU メモリがありません"


def test_a_file_without_the_exercises_function(tmp_path):
    """ "your file defines no function add()" was quoted in English under ja."""
    from tritonlab.engine import exercise_env
    from tritonlab.engine.learner import LearnerError

    learner = tmp_path / "add.py"
    learner.write_text("def plus(x, y):\n    return x + y\n", encoding="utf-8")
    with pytest.raises(LearnerError) as refused:
        exercise_env.load({"exercise": "5", "file": str(learner)}, "interpreter")
    err = refused.value.info
    assert err["kind"] == "runtime" and err["cause"] == "no-entry" and err["entry"] == "add", err
    en, ja = _worded(err)
    assert en == err["message"]
    assert ja == (
        "ファイルに関数 add() が定義されていません。ラボは torch のテンソルを渡して add(...) を呼び出し、"
        "その戻り値を比べます"
    )


def test_verify_of_an_unknown_exercise_refuses_with_the_catalogs_facts():
    """verify (and bench, profile, which the judge verifies first) quoted "no lesson '99' …" in English."""
    from tritonlab.engine.tasks import verify

    judge = SimpleNamespace(pool=object(), backend="interpreter")
    err = verify.handle({"exercise": "99/add"}, judge)["error"]
    assert err["kind"] == "usage" and err["code"] == "unknown-ref" and err["ref"] == "99", err
    en, ja = describe(err, "en"), describe(err, "ja")
    assert en == err["message"], en
    assert ja.startswith("レッスン '99' はありません(レッスン: ") and "«" not in ja, ja


class _NoRunner:
    def take(self):
        raise AssertionError("a runner was taken for a refused request")

    def run(self, *args, **kwargs):
        raise AssertionError("a runner ran a refused request")


@pytest.mark.parametrize("op", ["bench", "profile"])
def test_bench_and_profile_without_a_bench_are_refused_before_the_judge_verifies(monkeypatch, op):
    """The worker's pooled path verified the whole kernel first (seconds on the interpreter), then the runner
    said the exercise has no [exercise.bench]; a failing kernel even got "does not pass verify" instead."""
    from tritonlab.engine.tasks import verify

    def no_verify(*args, **kwargs):
        raise AssertionError("verified an exercise that has nothing to time")

    monkeypatch.setattr(verify, "handle", no_verify)
    result = worker.delegate(op, {"exercise": "3/program-map"}, _Ctx(_NoRunner()))
    err = result["error"]
    assert err["kind"] == "usage" and err["code"] == "no-bench" and err["op"] == op, err
    assert result["exercise"] == err["exercise"] == "03-programming-model/program-map"
    assert result["verified"] is False and result["backend"] == "interpreter"  # the task's own result shape
    assert result["rows"] == [] if op == "bench" else result["kernels"] == []
    assert describe(err, "en") == err["message"]
    assert "[exercise.bench] の指定がない" in describe(err, "ja")
