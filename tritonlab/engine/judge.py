"""The trusted side's pool of untrusted runners: one zygote, one warm spare, a fresh runner per request.

The judge (today's worker process) never imports a learner's file. For every request that runs learner code it
takes the warm spare runner (forked by the zygote, torch and triton already imported, a CUDA context on a
GPU), gives it a private directory, one job and a deadline, reads back structured messages only, and
afterwards kills the runner, every descendant it left (the judge is a child subreaper, so `setsid`
grandchildren come back to it), and deletes the directory. Output is drained through a pipe and kept capped in
memory (head + tail), so a flood costs neither memory nor disk. A new spare is forked after the reply, while
the learner reads it.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from tritonlab.engine import protocol, sandbox

# The interpreter's runners get an address-space limit (a learner's huge allocation fails with an error
# instead of taking the machine); CUDA maps far more virtual memory than it uses, so a GPU runner gets none.
ADDRESS_SPACE = int(os.environ.get("TRITONLAB_RUNNER_AS") or 16 * 2**30)
FILE_SIZE = {"interpreter": 256 * 2**20, "gpu": 4 * 2**30}  # any one file a runner writes (its outputs fit)
MAX_MESSAGES = 10_000
ZYGOTE_START = 180.0


class RunnerGone(Exception):
    """The zygote died (a learner killed its parent, or it failed to start)."""


class Runner:
    """One forked runner: its pid, its private directory and the judge's ends of its three pipes."""

    def __init__(self, pid: int, workdir: Path, job_w: int, result_r: int, output_r: int):
        self.pid = pid
        self.workdir = workdir
        self.job_w = job_w
        self.result_r = result_r
        self.output = sandbox.CappedOutput(output_r)

    def close_fds(self) -> None:
        for fd in (self.job_w, self.result_r):
            with contextlib.suppress(OSError):
                os.close(fd)


class Outcome:
    """What one job left behind: the messages in order, how the runner ended, its output (capped)."""

    def __init__(self):
        self.messages: list[dict] = []
        self.timed_out = False
        self.exit_status: int | None = None
        self.output = b""
        self.violations: list[str] = []  # lines on the result pipe that are not the runner's messages
        self.zygote_died = False
        self.workdir: Path | None = None

    @property
    def done(self) -> bool:
        return any(m.get("type") in ("done",) for m in self.messages)

    def output_text(self) -> str:
        return self.output.decode("utf-8", "replace")


def learner_data_folder() -> str:
    """What a runner must not read or write: the learner's data folder (drafts, progress and its seal's
    secret, settings); its `cache` entry (a compile cache, if TRITON_CACHE_DIR points there) stays usable."""
    from tritonlab.store.files import _data_path

    return str(_data_path())


class RunnerPool:
    def __init__(self, backend: str):
        self.backend = backend
        self.zygote: subprocess.Popen | None = None
        self.sock: socket.socket | None = None
        self.spare: Runner | None = None
        self.root = Path(tempfile.mkdtemp(prefix="tritonlab-judge-"))
        self.subreaper = sandbox.become_subreaper()
        self.restarts = 0
        self._exits: dict[int, int] = {}
        self._ready = False

    # ---- zygote -------------------------------------------------------------------------------------------

    def start(self) -> None:
        """Spawn the zygote without waiting for its imports (they overlap with the judge's own)."""
        if self.zygote is None:
            self._spawn_zygote()

    def _start_zygote(self) -> None:
        if self.zygote is not None:
            self._stop_zygote()
            self.restarts += 1
        self._spawn_zygote()
        self._await_ready()

    def _await_ready(self) -> None:
        if self._ready:
            return
        reply = self._receive(ZYGOTE_START)
        if not reply.get("ready"):
            raise RunnerGone("the runner pool did not start: " + self.zygote_log())
        self._ready = True

    def _spawn_zygote(self) -> None:
        self._ready = False
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        home = self.root / "zygote"
        home.mkdir(exist_ok=True)
        env = sandbox.scrubbed_env(os.environ, str(home))
        env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
        env["PYTHONUNBUFFERED"] = "1"
        for key in ("TRITON_CACHE_DIR",):  # the compiled-kernel cache stays shared and warm
            if key in os.environ:
                env[key] = os.environ[key]
        if "TRITON_CACHE_DIR" not in env:
            env["TRITON_CACHE_DIR"] = str(Path(os.path.expanduser("~")) / ".triton" / "cache")
        if self.backend == "interpreter":
            # the interpreter is single-threaded Python; a BLAS or OpenMP thread pool the zygote starts does
            # not survive the fork into a runner (a tl.dot on the H200's 16 cores: autotune verifies died)
            for key in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
                env[key] = "1"
        # made here: a runner may not create folders in the learner's home (Landlock keeps the folders on the
        # way to their data listable only), so on a fresh machine it could not make Triton's cache itself
        with contextlib.suppress(OSError):
            os.makedirs(env["TRITON_CACHE_DIR"], exist_ok=True)
        log = open(self.root / "zygote.log", "ab")  # noqa: SIM115 - handed to the zygote as its stdout/stderr
        self.zygote = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tritonlab.engine.runner",
                "--backend",
                self.backend,
                "--socket",
                str(theirs.fileno()),
            ],
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=log,
            env=env,
            cwd=str(home),
            pass_fds=(theirs.fileno(),),
            close_fds=True,
        )
        log.close()
        theirs.close()
        self.sock = ours

    def zygote_log(self, lines: int = 15) -> str:
        try:
            return "\n".join((self.root / "zygote.log").read_text("utf-8", "replace").splitlines()[-lines:])
        except OSError:
            return ""

    def _receive(self, timeout: float) -> dict:
        assert self.sock is not None
        ready, _, _ = select.select([self.sock], [], [], timeout)
        if not ready:
            raise RunnerGone("the runner pool did not answer in time")
        try:
            data = self.sock.recv(65536)
        except OSError:
            data = b""
        if not data:
            raise RunnerGone("the runner pool is gone")
        return json.loads(data.decode("utf-8"))

    def _ask(self, message: dict, fds: Sequence[int] = (), timeout: float = 30.0) -> dict:
        if self.zygote is None or self.zygote.poll() is not None:
            raise RunnerGone("the runner pool is gone")
        assert self.sock is not None, "a live zygote has its socket"
        try:
            socket.send_fds(self.sock, [json.dumps(message).encode()], list(fds))
        except OSError as exc:
            raise RunnerGone(f"the runner pool is gone ({exc})") from None
        return self._receive(timeout)

    def _stop_zygote(self) -> None:
        if self.sock is not None:
            self.sock.close()
            self.sock = None
        if self.zygote is not None and self.zygote.poll() is None:
            self.zygote.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.zygote.wait(timeout=5)
        self.spare = None

    # ---- runners ------------------------------------------------------------------------------------------

    def _fork(self) -> Runner:
        if self.zygote is None or self.zygote.poll() is not None:
            self._start_zygote()
        try:
            self._await_ready()
        except RunnerGone:
            self._start_zygote()
        workdir = Path(tempfile.mkdtemp(prefix="run-", dir=self.root))
        job_r, job_w = os.pipe()
        result_r, result_w = os.pipe()
        output_r, output_w = os.pipe()
        try:
            reply = self._ask(
                {
                    "op": "fork",
                    "workdir": str(workdir),
                    "limits": {
                        "address_space": ADDRESS_SPACE,
                        "file_size": FILE_SIZE.get(self.backend),
                        "hide": learner_data_folder(),
                        # TRITONLAB_SANDBOX=off: no seccomp filter and no Landlock (a way out if a driver or a
                        # kernel ever disagrees with them; the verdict stays the judge's either way)
                        "confine": os.environ.get("TRITONLAB_SANDBOX", "on") != "off",
                    },
                },
                [job_r, result_w, output_w],
            )
        finally:
            for fd in (job_r, result_w, output_w):
                os.close(fd)
        return Runner(int(reply["pid"]), workdir, job_w, result_r, output_r)

    def warm(self) -> None:
        """Have a spare runner ready (called at start and after every reply, from the main thread)."""
        if self.spare is not None and self.zygote is not None and self.zygote.poll() is None:
            return
        try:
            self.spare = self._fork()
        except RunnerGone:
            self.spare = None

    def take(self) -> Runner:
        runner = self.spare if self.zygote is not None and self.zygote.poll() is None else None
        self.spare = None
        if runner is None:
            runner = self._fork()
        return runner

    def run(self, job: dict, timeout: float, on_message=None, runner: Runner | None = None) -> Outcome:
        """Give one fresh runner one job; collect its messages until it says done, dies or runs out of time.
        `runner`: one already taken (the caller put the inputs into its directory)."""
        outcome = Outcome()
        if runner is None:
            try:
                runner = self.take()
            except RunnerGone as exc:
                outcome.zygote_died = True
                outcome.output = str(exc).encode()
                return outcome
        outcome.workdir = runner.workdir
        job = dict(job, cpu_seconds=max(5.0, timeout * 1.5))
        try:
            with contextlib.suppress(OSError):
                os.write(runner.job_w, protocol.encode(job))
            self._collect(runner, timeout, outcome, on_message)
        finally:
            self._finish(runner, outcome)
        return outcome

    def _collect(self, runner: Runner, timeout: float, outcome: Outcome, on_message) -> None:
        deadline = time.monotonic() + timeout
        buffer = b""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                outcome.timed_out = True
                self._dump_traceback(runner)
                return
            ready, _, _ = select.select([runner.result_r], [], [], min(remaining, 0.5))
            if not ready:
                if (
                    self._status(runner.pid, 0.0) is not None
                    or self.zygote is None
                    or self.zygote.poll() is not None
                ):
                    return  # dead, while something it started still holds the pipe open
                continue
            try:
                chunk = os.read(runner.result_r, 1 << 20)
            except OSError:
                chunk = b""
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if not line.strip():
                    continue
                message = _parse(line)
                if message is None:
                    outcome.violations.append(line[:200].decode("utf-8", "replace"))
                    continue
                if len(outcome.messages) >= MAX_MESSAGES:
                    outcome.violations.append("too many messages")
                    return
                outcome.messages.append(message)
                if on_message is not None:
                    on_message(message)
                if message["type"] in ("done", "internal"):
                    return

    def _dump_traceback(self, runner: Runner) -> None:
        """Ask the runner's faulthandler where it is stuck, so the timeout names the learner's line."""
        try:
            os.kill(runner.pid, signal.SIGUSR1)
        except (ProcessLookupError, PermissionError):
            return
        deadline = time.monotonic() + 1.5
        while time.monotonic() < deadline:
            if b"most recent call first" in bytes(runner.output.tail) + bytes(runner.output.head[-20000:]):
                time.sleep(0.05)
                return
            time.sleep(0.05)

    def _finish(self, runner: Runner, outcome: Outcome) -> None:
        """Kill the runner, everything it started, and its files; record how it ended."""
        if not outcome.timed_out and not outcome.done:
            outcome.exit_status = self._status(
                runner.pid, 2.0
            )  # it ended on its own: a crash, an exit, a kill
        sandbox.kill_group(runner.pid)
        sandbox.kill_tree({runner.pid} | sandbox.descendants(runner.pid))
        zygote_alive = self.zygote is not None and self.zygote.poll() is None
        keep = {self.zygote.pid} if self.zygote is not None and zygote_alive else set()
        sandbox.clean_below(os.getpid(), keep)  # `setsid` orphans, re-parented to us
        self._status(runner.pid, 2.0)  # reap it
        if not zygote_alive or self.zygote is None or self.zygote.poll() is not None:
            outcome.zygote_died = True
        runner.close_fds()
        outcome.output = runner.output.finish()
        shutil.rmtree(runner.workdir, ignore_errors=True)

    def _status(self, pid: int, timeout: float) -> int | None:
        """The runner's exit status once it has ended (remembered: the zygote can reap a pid only once)."""
        if pid in self._exits:
            return self._exits[pid]
        try:
            reply = self._ask({"op": "wait", "pid": pid, "timeout": timeout}, timeout=timeout + 5)
        except RunnerGone:
            return None
        if reply.get("status") is not None:
            self._exits[pid] = reply["status"]
            if len(self._exits) > 1000:
                self._exits.pop(next(iter(self._exits)))
        return reply.get("status")

    def close(self) -> None:
        spare, self.spare = self.spare, None
        if spare is not None:
            spare.close_fds()
            sandbox.kill_group(spare.pid)
        self._stop_zygote()
        sandbox.clean_below(os.getpid(), set())
        shutil.rmtree(self.root, ignore_errors=True)


def _parse(line: bytes) -> dict | None:
    """A runner message is a JSON object with a known type; anything else is a violation (never a verdict)."""
    try:
        message = json.loads(line.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        return None
    if not isinstance(message, dict) or message.get("type") not in (
        "started",
        "event",
        "case",
        "reject",
        "dry",
        "load-error",
        "done",
        "internal",
        "result",
    ):
        return None
    return message
