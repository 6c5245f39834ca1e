"""The runner's confinement helpers (no torch): control-sequence stripping, capped output, process cleanup."""

import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

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


# ---- the signal filter ------------------------------------------------------------------------------------


def _in_guarded_child(body) -> dict:
    """Run `body(older_pid)` in a forked child that installs the filter; return what it reported."""
    import json
    import platform
    import signal
    import time

    if sys.platform != "linux" or sandbox.signal_filter(platform.machine(), 1) is None:
        pytest.skip("the seccomp signal filter is for Linux on x86_64/aarch64")
    older = os.fork()
    if older == 0:  # a process older than the guarded one: stands in for the judge or the app
        time.sleep(30)
        os._exit(0)
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        report = {"guarded": sandbox.guard_signals()}
        try:
            report.update(body(older))
        except BaseException as exc:  # noqa: BLE001 - reported to the test
            report["error"] = repr(exc)
        os.write(write, json.dumps(report).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    data = os.read(read, 65536)
    os.close(read)
    older_alive = os.waitpid(older, os.WNOHANG) == (0, 0)
    with contextlib.suppress(ProcessLookupError):
        os.kill(older, signal.SIGKILL)
    os.waitpid(older, 0)
    report = json.loads(data)
    report["older_alive"] = older_alive
    if not report["guarded"]:
        pytest.skip("this kernel refused a seccomp filter")
    return report


def _try(call) -> str:
    try:
        call()
        return "allowed"
    except PermissionError:
        return "denied"


def test_the_filter_refuses_signals_to_older_processes():
    import signal

    def body(older):
        return {
            "kill": _try(lambda: os.kill(older, signal.SIGKILL)),
            "killpg": _try(lambda: os.killpg(os.getpgid(older), signal.SIGKILL)),
            "everyone": _try(lambda: os.kill(-1, signal.SIGKILL)),
        }

    report = _in_guarded_child(body)
    assert report.get("error") is None, report
    assert report["kill"] == report["killpg"] == report["everyone"] == "denied", report
    assert report["older_alive"]


def test_the_filter_lets_a_runner_signal_itself_and_its_own_children():
    """The false-fail side: probes, its own threads, its own group and the children it starts still work."""
    import signal
    import threading

    def body(older):
        signal.signal(signal.SIGUSR2, lambda *_: None)
        child = os.fork()
        if child == 0:
            time.sleep(30)
            os._exit(0)
        out = {
            "probe": _try(lambda: os.kill(older, 0)),
            "self": _try(lambda: os.kill(os.getpid(), signal.SIGUSR2)),
            "thread": _try(lambda: signal.pthread_kill(threading.main_thread().ident, signal.SIGUSR2)),
            "child": _try(lambda: os.kill(child, signal.SIGKILL)),
        }
        os.waitpid(child, 0)
        return out

    report = _in_guarded_child(body)
    assert report.get("error") is None, report
    assert {report[k] for k in ("probe", "self", "thread", "child")} == {"allowed"}, report


def test_the_filter_program_fits_bpf():
    """Every jump forward and within 255 instructions; an unknown machine gets no filter (best effort)."""
    for machine in ("x86_64", "aarch64"):
        prog = sandbox.signal_filter(machine, 4242)
        assert prog and len(prog) < 64
        assert all(0 <= jt < 256 and 0 <= jf < 256 for _code, jt, jf, _k in prog)
    assert sandbox.signal_filter("riscv64", 4242) is None


# ---- the learner's data folder: Landlock -------------------------------------------------------------------


def test_landlock_rules_leave_the_folder_and_its_parents_listable_only(tmp_path):
    data = tmp_path / "home" / "data"
    (data / "cache").mkdir(parents=True)
    (data / "progress-v1.json").write_text("{}")
    (tmp_path / "home" / "other").mkdir()
    (tmp_path / "home" / "current").symlink_to(data.parent)  # like pytest-current: must get no rule
    rules = dict(sandbox.landlock_rules(str(data), keep=("cache",)))
    assert rules["/"] is False
    assert rules[str(tmp_path / "home" / "other")] is True and rules[str(data / "cache")] is True
    assert str(data / "progress-v1.json") not in rules and str(data) not in rules
    assert str(tmp_path / "home") not in rules and str(tmp_path / "home" / "current") not in rules


def test_a_hidden_folder_is_out_of_reach_and_everything_else_is_not(tmp_path):
    """Read, write and create are refused inside the folder (listing names is allowed); the kept cache, a
    sibling folder, /etc, running a binary and a rename across folders in the cache still work."""
    import ctypes
    import json

    if sys.platform != "linux" or sandbox._landlock_abi(ctypes.CDLL(None, use_errno=True)) < 2:
        pytest.skip("no Landlock ABI >= 2 on this kernel")
    data = tmp_path / "data"
    (data / "cache" / "a").mkdir(parents=True)
    (data / "cache" / "b").mkdir()
    (data / "secret-v1").write_text("s")
    work = tmp_path / "work"
    work.mkdir()
    read, write = os.pipe()
    child = os.fork()
    if child == 0:
        os.close(read)
        report = {"hidden": sandbox.hide_folder(str(data), keep=("cache",))}

        def attempt(name, call):
            try:
                call()
                report[name] = "allowed"
            except OSError:
                report[name] = "denied"

        attempt("read", lambda: (data / "secret-v1").read_text())
        attempt("write", lambda: (data / "secret-v1").write_text("forged"))
        attempt("create", lambda: (data / "progress-v1.json").write_text("{}"))
        attempt("list", lambda: os.listdir(data))
        attempt("cache", lambda: (data / "cache" / "a" / "k").write_text("x"))
        attempt("rename", lambda: os.replace(data / "cache" / "a" / "k", data / "cache" / "b" / "k"))
        attempt("work", lambda: (work / "f").write_text("x"))
        attempt("etc", lambda: Path("/etc/hostname").read_text())
        attempt("binary", lambda: subprocess.run(["/bin/true"], check=True))
        os.write(write, json.dumps(report).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    report = json.loads(os.read(read, 65536))
    os.close(read)
    assert report.pop("hidden") is True
    assert {k: report[k] for k in ("read", "write", "create")} == dict.fromkeys(
        ("read", "write", "create"), "denied"
    )
    assert {k for k, v in report.items() if v == "allowed"} == {
        "list",
        "cache",
        "rename",
        "work",
        "etc",
        "binary",
    }
    assert (data / "secret-v1").read_text() == "s"
