"""Start-up: the UI process never imports torch or triton, and the first frame comes in under a second.

Both run the app in a subprocess: sys.modules of the test process says nothing about the app's, and the
first-paint time includes Python's own start-up, as the learner sees it.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

from app_helpers import ROOT

FIRST_PAINT_BUDGET_S = 1.0

MODULES_SCRIPT = """
import asyncio, json, sys
from tritonlab.app.app import TritonLabApp

HEAVY = ("torch", "triton", "numpy")

async def main():
    app = TritonLabApp(exercise_ref="5/add", lang="en", backend="interpreter")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        mounted = sorted(m for m in HEAVY if m in sys.modules)
        await app.workers.wait_for_complete()
        await pilot.pause()
        after_hello = sorted(m for m in HEAVY if m in sys.modules)
        print(json.dumps({"mounted": mounted, "after_hello": after_hello, "hello": app.worker_info,
                          "screen": type(app.screen).__name__}))

asyncio.run(main())
"""


def test_ui_process_never_imports_torch_or_triton():
    done = subprocess.run(
        [sys.executable, "-c", MODULES_SCRIPT],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["screen"] == "LessonScreen"
    assert report["mounted"] == [] and report["after_hello"] == []
    assert report["hello"]["backend"] == "interpreter"  # the worker (another process) did import them


def _first_paint(args: list[str], marker: bytes, columns: int = 80, rows: int = 24) -> float | None:
    """Seconds from spawning `python -m tritonlab ARGS` in a pseudo-terminal until `marker` is drawn."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", COLORTERM="truecolor")
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tritonlab", *args],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        cwd=ROOT,
        env=env,
        start_new_session=True,
        close_fds=True,
    )
    os.close(slave)
    seen, painted = b"", None
    try:
        while painted is None and time.perf_counter() - started < 20 and proc.poll() is None:
            if select.select([master], [], [], 0.02)[0]:
                seen += os.read(master, 1 << 16)
                if marker in seen:
                    painted = time.perf_counter() - started
        os.write(master, b"\x11")  # ctrl+q: quit, which also stops the worker process
        quit_by = time.monotonic() + 15
        while proc.poll() is None and time.monotonic() < quit_by:
            if select.select([master], [], [], 0.05)[0]:
                try:
                    os.read(master, 1 << 16)
                except OSError:
                    break
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=10)
    finally:
        os.close(master)
    return painted


def test_first_paint_under_a_second():
    """The best of three, so a busy moment on a shared machine does not fail it; all three are reported."""
    timings = []
    for _ in range(3):
        timings.append(_first_paint(["open", "5/add", "--lang", "en"], b"Verify"))
        if timings[-1] is not None and timings[-1] < FIRST_PAINT_BUDGET_S:
            break
    painted = [t for t in timings if t is not None]
    assert painted, "the app never drew its lesson screen"
    assert min(painted) < FIRST_PAINT_BUDGET_S, f"first paint took {timings} s"
