"""A verify whose learner code killed its process (os._exit, a segfault in the interpreter) was said as "the
worker process died … It restarts on the next request", and the app showed "worker restarted after a crash":
but only the runner died; the worker judged it and stayed up. The crash now carries cause "runner"."""

from tritonlab.app.formatting import restart_notice
from tritonlab.present.diagnoses import describe


def test_a_dead_runner_is_not_a_dead_worker():
    err = {
        "kind": "crash",
        "cause": "runner",
        "exit_code": -11,
        "signal": "SIGSEGV",
        "pool": False,
        "line": 7,
    }
    en, ja = describe(err, "en"), describe(err, "ja")
    assert "the process that ran your code died: SIGSEGV (segmentation fault" in en
    assert "worker" not in en and "ワーカー" not in ja
    assert "コードを実行していたプロセスが終了しました: SIGSEGV" in ja
    assert restart_notice(err, "en", None) is None and restart_notice(err, "ja", None) is None
    exited = describe(dict(err, exit_code=3, signal=None, pool=True), "en")
    assert "exit code 3" in exited and "pool that starts it" in exited


def test_a_worker_crash_still_says_the_worker_restarted():
    err = {"kind": "crash", "exit_code": -11, "signal": "SIGSEGV"}
    assert "worker process died" in describe(err, "en")
    assert "worker restarted after a crash: SIGSEGV" in restart_notice(err, "en", None)
