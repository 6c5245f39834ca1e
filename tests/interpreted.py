"""Run a script in a child Python with Triton's interpreter on: TRITON_INTERPRET=1 must be set before triton is
imported, so tests that need it (bf16 repairs, race and out-of-bounds records, wrap_triton) start a fresh process."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_interpreted(script: str, *args: str) -> subprocess.CompletedProcess:
    """The finished child (text output); the repository on its PYTHONPATH, TRITON_INTERPRET=1 in its env."""
    env = dict(os.environ, TRITON_INTERPRET="1", PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        cwd=ROOT,
        timeout=300,
    )


def last_json(done: subprocess.CompletedProcess):
    """The JSON the child printed last, after asserting it exited cleanly."""
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])
