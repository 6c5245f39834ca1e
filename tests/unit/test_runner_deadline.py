"""The runner's deadline leaves the judge time to answer "timeout" itself (with the learner's line) before the
client's own deadline kills the judge — counting the judge's set-up, which on a GPU with large cases takes seconds."""

import time

from tritonlab.engine.tasks.verify import _timeout


def test_the_judges_setup_time_comes_off_the_runners_deadline():
    args = {"_timeout": 10.0, "_received": time.monotonic() - 4.0}
    assert 2.5 <= _timeout(args) <= 3.05  # 10 - 3 (the judge's answer) - 4 (set-up)


def test_without_setup_time_the_runner_gets_all_but_the_judges_margin():
    assert abs(_timeout({"_timeout": 10.0, "_received": time.monotonic()}) - 7.0) < 0.05
    assert _timeout({"_timeout": 10.0}) == 7.0
    assert _timeout({}) == 60.0


def test_a_runner_always_gets_a_moment():
    assert _timeout({"_timeout": 5.0, "_received": time.monotonic() - 30.0}) == 1.0


def test_a_longer_request_leaves_the_judge_more_room():
    """After the runner's deadline come its traceback (1.5 s), the kill and reap (2 s) and the worker's own
    watchdog 1 s before the client's deadline: a 20 s request keeps 5 s, a long one never more."""
    assert _timeout({"_timeout": 20.0}) == 15.0
    assert _timeout({"_timeout": 120.0}) == 115.0
