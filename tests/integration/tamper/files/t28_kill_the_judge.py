# expect: runtime
# ruff: noqa  (a hostile learner file: its oddities are the point)
import os
import signal


def add(x, y):
    """Walk up past the runner's parent to the lab's judge process and kill it."""
    parent = os.getppid()
    with open(f"/proc/{parent}/stat") as handle:
        judge = int(handle.read().rsplit(")", 1)[1].split()[1])
    os.kill(judge, signal.SIGKILL)
    return x + y
