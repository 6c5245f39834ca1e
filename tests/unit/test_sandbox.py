"""The runner's confinement helpers (no torch): control-sequence stripping, capped output, process cleanup."""

import os
import subprocess
import sys
import time
from pathlib import Path

from tritonlab.engine import sandbox


def test_strip_control_removes_what_can_hide_or_fake_text():
    fake = "\x1b[2J\x1b[H\x1b]0;PASSED\x07\x1b[32mPASSED\x1b[0m\rFAILED\x1b[1A\x9b2K\x07"
    clean = sandbox.strip_control(fake)
    assert "\x1b" not in clean and "\r" not in clean and "\x9b" not in clean and "\x07" not in clean
    assert clean == "PASSED\nFAILED"


def test_strip_control_keeps_ordinary_text():
    text = "case 3/12: n=97 · float32\tmax error 0.5\n日本語のメッセージ [ok] ~ {x}"
    assert sandbox.strip_control(text) == text


def test_capped_output_keeps_head_and_tail_of_a_flood():
    read, write = os.pipe()
    out = sandbox.CappedOutput(read)
    os.write(write, b"START\n")
    chunk = b"x" * 65536
    for _ in range(64):  # 4 MiB
        os.write(write, chunk)
    os.write(write, b"\nTHE END\n")
    os.close(write)
    kept = out.finish()
    assert kept.startswith(b"START") and kept.endswith(b"THE END\n")
    assert len(kept) < sandbox.OUTPUT_HEAD + sandbox.OUTPUT_TAIL + 200
    assert b"bytes of output not kept" in kept


def test_small_output_is_kept_whole():
    read, write = os.pipe()
    out = sandbox.CappedOutput(read)
    os.write(write, b"hello\n")
    os.close(write)
    assert out.finish() == b"hello\n"


def test_scrubbed_env_has_no_path_to_the_lab_data(tmp_path):
    env = sandbox.scrubbed_env(
        {"TRITONLAB_HOME": "/data", "HOME": "/home/me", "XDG_DATA_HOME": "/x", "PATH": "/usr/bin"},
        str(tmp_path),
    )
    assert (
        "TRITONLAB_HOME" not in env and env["HOME"] == str(tmp_path) and env["XDG_DATA_HOME"] == str(tmp_path)
    )
    assert env["PATH"] == "/usr/bin"


def test_clean_below_kills_setsid_grandchildren():
    """A child that starts a setsid grandchild and exits: the grandchild comes back to us (subreaper) and dies."""
    code = (
        "import subprocess, sys\n"
        "p = subprocess.Popen(['sleep', '60'], start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        "print(p.pid, flush=True)\n"
    )
    script = (
        "import os, subprocess, sys\n"
        "from tritonlab.engine import sandbox\n"
        "assert sandbox.become_subreaper()\n"
        f"out = subprocess.run([sys.executable, '-c', {code!r}], capture_output=True, text=True).stdout\n"
        "pid = int(out.split()[0])\n"
        "assert os.path.exists(f'/proc/{pid}')\n"
        "killed = sandbox.clean_below(os.getpid(), set())\n"
        "print(pid, killed)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    pid, killed = map(int, done.stdout.split())
    assert killed >= 1
    time.sleep(0.2)
    assert (
        not os.path.exists(f"/proc/{pid}")
        or Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z"
    )


def test_limits_are_lowered_for_good():
    script = (
        "import resource\n"
        "from tritonlab.engine import sandbox\n"
        "print(sandbox.limit_resources(address_space=2**34, cpu_seconds=5, file_size=2**20))\n"
        "try:\n"
        "    resource.setrlimit(resource.RLIMIT_FSIZE, (2**30, 2**30))\n"
        "    print('raised')\n"
        "except ValueError:\n"
        "    print('refused')\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert "address space" in done.stdout and "refused" in done.stdout, done.stdout + done.stderr
