"""Start-up: the UI process never imports torch or triton (checked in a subprocess: sys.modules of the
test process says nothing about the app's). The first-paint time is a benchmark: scripts/first_paint.py."""

from __future__ import annotations

import json
import subprocess
import sys

from app_helpers import ROOT

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
