"""The UI/CLI side of the worker: spawns it, sends requests, survives whatever the learner's code does.

Never imports torch or triton. The worker is untrusted: every request has a timeout that escalates
SIGINT → SIGTERM → SIGKILL on its process group; a dead worker is explained (signal name, last lines of its
output, the learner's line from the faulthandler traceback) and the next request starts a fresh one.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

from tritonlab.engine import protocol
from tritonlab.engine.sandbox import descendants, forbid_inspection, kill_tree, strip_control

DEFAULT_TIMEOUT = 60.0
STARTUP_TIMEOUT = 180.0
OUTPUT_CAP = 64 * 1024

SIGNAL_TEXT = {
    "SIGSEGV": "segmentation fault: the process touched memory it does not own",
    "SIGABRT": "aborted: typically a corrupted heap after an out-of-bounds store",
    "SIGKILL": "killed: out of memory, or stopped after a timeout",
    "SIGBUS": "bus error: a misaligned or unmapped memory access",
    "SIGFPE": "arithmetic exception",
    "SIGILL": "illegal instruction",
    "SIGTERM": "terminated",
    "SIGINT": "interrupted",
}


def describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = f"signal {-returncode}"
        text = SIGNAL_TEXT.get(name)
        return f"{name} ({text})" if text else name
    return f"exit code {returncode}"


_LIVE: set[subprocess.Popen] = set()


@atexit.register
def _stop_live_workers() -> None:
    """Never leave a worker behind when the app or CLI exits (it may be spinning in a learner's loop)."""
    for proc in list(_LIVE):
        if proc.poll() is None:
            below = descendants(proc.pid)
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            kill_tree(below)


class WorkerClient:
    """One worker process, kept warm between requests; replaced when it dies."""

    def __init__(self, backend: str = "auto", env: dict | None = None, python: str | None = None):
        self.backend_requested = backend
        self.env = dict(env or {})
        self.python = python or sys.executable
        self.proc: subprocess.Popen | None = None
        self.info: dict = {}  # the worker's hello: backend, device, versions
        self.restarts = 0
        self.last_exit: str | None = None
        self._buffer = b""
        self._lock = threading.Lock()
        self._state_lock = threading.Lock()
        self._cancelled = False
        self._next_id = 0
        self._dir = Path(tempfile.mkdtemp(prefix="tritonlab-worker-"))
        self._log = self._dir / "worker.log"

    # ---- lifecycle ------------------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def start(self, timeout: float = STARTUP_TIMEOUT) -> dict:
        """Spawn the worker and wait for its hello (backend, device, versions)."""
        with self._lock:
            return self._ensure_started(timeout)

    def _ensure_started(self, timeout: float = STARTUP_TIMEOUT) -> dict:
        if self.alive:
            return self.info
        if self.proc is not None:
            self.restarts += 1
        env = os.environ.copy()
        env.update(self.env)
        env["PYTHONUNBUFFERED"] = "1"
        env.pop("TRITON_INTERPRET", None)  # the worker decides, before it imports triton
        # Runners get a private HOME: pin Triton's compile cache to where it would be for this user, so a
        # fresh runner per request still finds the kernels compiled before (a cold JIT is ~2 s on the GPU
        # box).
        env.setdefault("TRITON_CACHE_DIR", os.path.join(os.path.expanduser("~"), ".triton", "cache"))
        if self.backend_requested == "interpreter":
            env["TRITON_INTERPRET"] = "1"
        forbid_inspection()  # no learner process may open this process's pipes to the judge via /proc
        log = open(self._log, "ab")  # noqa: SIM115 - the worker keeps it as stdout/stderr; closed below
        self.proc = subprocess.Popen(
            [self.python, "-m", "tritonlab.engine.worker", "--backend", self.backend_requested],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            env=env,
            start_new_session=True,  # its own process group, so a timeout can kill everything it started
            close_fds=True,
        )
        log.close()
        _LIVE.difference_update({p for p in _LIVE if p.poll() is not None})
        _LIVE.add(self.proc)
        self._buffer = b""
        hello = self._read_message(None, timeout, lambda m: None)
        if "result" not in hello:
            info = hello.get("error") or {}
            self._kill(self.proc, gentle=False)  # never reuse a worker that failed to start
            raise WorkerStartError(
                info.get("message", "the worker did not start"),
                self.log_tail(),
                kind=info.get("kind", "crash"),
                code=info.get("code"),
            )
        self.info = hello["result"]
        return self.info

    def close(self) -> None:
        with self._state_lock:
            proc = self.proc
        if proc and proc.poll() is None:
            try:
                if proc.stdin is not None:  # always, with stdin=PIPE
                    proc.stdin.close()
                proc.wait(timeout=2)
            except Exception:
                self._kill(proc)

    def cancel(self) -> None:
        """Stop the running request (from any thread). The worker is killed and replaced on the next
        request."""
        with self._state_lock:
            self._cancelled = True
            proc = self.proc
        if proc and proc.poll() is None:
            self._kill(proc, gentle=False)

    def restart(self) -> dict:
        with self._lock:
            if self.proc and self.proc.poll() is None:
                self._kill(self.proc, gentle=False)
            return self._ensure_started()

    # ---- requests -------------------------------------------------------------------------------

    def request(
        self,
        op: str,
        args: dict | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        on_event: Callable[[dict], None] | None = None,
    ) -> dict:
        """Send one request; returns the worker's result dict. Faults come back as {"error": {...}}.

        A cancel() that arrives before the request reaches the worker still cancels it. Every string in the
        result is stripped of terminal control sequences: learner code chooses some of them (its output, its
        exception messages), and none may recolour, move the cursor or hide a FAILED."""
        with self._lock:
            try:
                return _sanitize(self._request(op, args, timeout, on_event))
            finally:
                self._cancelled = False

    def _request(self, op, args, timeout, on_event) -> dict:
        if self._cancelled:
            return {"error": protocol.error("cancelled", "cancelled before it started")}
        try:
            self._ensure_started()
        except WorkerStartError as exc:
            refused = protocol.error(
                exc.kind,
                f"the worker could not start: {exc}",
                stderr_tail=exc.tail,
                cause="start",
                exception=str(exc),
            )
            if exc.code:  # the worker refused to start ("no-gpu"): the UI words the refusal
                refused["code"] = exc.code
            return {"error": refused}
        self._next_id += 1
        rid = self._next_id
        capture = self._dir / f"out-{rid}.txt"
        try:
            return self._exchange(op, args, timeout, on_event, rid, capture)
        finally:
            with contextlib.suppress(OSError):
                capture.unlink()  # learner output never stays on disk after its request

    def _exchange(self, op, args, timeout, on_event, rid, capture) -> dict:
        message = {"id": rid, "op": op, "args": args or {}, "capture": str(capture), "timeout": timeout}
        started = time.monotonic()
        try:
            stdin = self._started.stdin
            assert stdin is not None, "the worker is started with stdin=PIPE"
            stdin.write(protocol.encode(message))
            stdin.flush()
        except (BrokenPipeError, OSError):
            return self._died(capture, args or {})
        reply = self._read_message(rid, timeout, on_event or (lambda m: None))
        elapsed = time.monotonic() - started
        if "result" in reply:
            result = reply["result"]
            result.setdefault("output", self._read_capture(capture))
            result["elapsed_s"] = round(elapsed, 3)
            if result.get("restart_worker"):
                self._kill(self._started, gentle=True)
                self.last_exit = "replaced after a CUDA fault"
            return result
        if reply.get("timeout"):
            self._dump_traceback(capture)
            self._kill(self._started)
            self.last_exit = f"killed after {timeout:g} s timeout"
            return {
                "error": protocol.error(
                    "timeout",
                    f"no answer within {timeout:g} s: the kernel may loop forever (check the loop bounds) "
                    "or run far more programs than you meant. The worker was stopped and will restart.",
                    line=_learner_line(self._read_tail(capture), args or {}),
                    timeout_s=timeout,
                    stopped="worker",
                ),
                "output": self._read_capture(capture),
                "elapsed_s": round(elapsed, 3),
            }
        return self._died(capture, args or {})

    @property
    def _started(self) -> subprocess.Popen:
        """The worker process, for the steps that run only after `_ensure_started` made one."""
        assert self.proc is not None, "the worker has not been started"
        return self.proc

    def _died(self, capture: Path, args: dict) -> dict:
        proc = self._started
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self._kill(proc)
        cancelled = self._cancelled
        self.last_exit = describe_exit(proc.returncode)
        _remove_scratch(self.info.get("scratch"))
        output = self._read_capture(capture)
        tail_text = self._read_tail(capture)
        if cancelled:
            return {
                "error": protocol.error("cancelled", "cancelled: the worker was stopped and will restart"),
                "output": output,
            }
        tail = "\n".join((tail_text + "\n" + self.log_tail()).strip().splitlines()[-20:])
        return {
            "error": protocol.error(
                "crash",
                f"the worker process died: {self.last_exit}. "
                "It restarts on the next request; your code is kept.",
                line=_learner_line(tail_text, args),
                signal=describe_exit(proc.returncode).split(" ")[0] if (proc.returncode or 0) < 0 else None,
                exit_code=proc.returncode,
                stderr_tail=tail,
            ),
            "output": output,
        }

    # ---- plumbing -------------------------------------------------------------------------------

    def _read_message(self, rid, timeout: float, on_event) -> dict:
        deadline = time.monotonic() + timeout
        stdout = self._started.stdout
        assert stdout is not None, "the worker is started with stdout=PIPE"
        fd = stdout.fileno()
        while True:
            while b"\n" in self._buffer:
                line, self._buffer = self._buffer.split(b"\n", 1)
                if not line.strip():
                    continue
                try:
                    message = protocol.decode(line)
                except ValueError:
                    continue
                if "event" in message:
                    on_event(message)
                    continue
                if rid is None or message.get("id") == rid:
                    return message
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return {"timeout": True}
            ready, _, _ = select.select([fd], [], [], min(remaining, 0.5))
            if not ready:
                continue
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            if not chunk:
                return {"eof": True}
            self._buffer += chunk

    def _dump_traceback(self, capture: Path) -> None:
        """Ask the worker's faulthandler for a traceback (into the capture file) before stopping it, and wait
        until it is there (a busy machine may take a moment to schedule the worker)."""
        if self.proc is None:
            return
        try:
            os.kill(self.proc.pid, signal.SIGUSR1)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + 2.0
        while time.monotonic() < deadline:
            if "most recent call first" in self._read_tail(capture):
                time.sleep(0.05)  # let the dump finish
                return
            time.sleep(0.05)

    def _kill(self, proc: subprocess.Popen, gentle: bool = True) -> None:
        steps = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL] if gentle else [signal.SIGKILL]
        # the judge's runners live in sessions of their own: named now, killed with it (a runner also dies
        # with its zygote, but a learner's `setsid` grandchild would outlive a judge killed mid-request)
        below = descendants(proc.pid) if proc.poll() is None else set()
        try:
            self._signal_steps(proc, steps)
        finally:
            kill_tree(below)

    def _signal_steps(self, proc: subprocess.Popen, steps: list) -> None:
        for sig in steps:
            if proc.poll() is not None:
                break
            try:
                os.killpg(proc.pid, sig)
            except (ProcessLookupError, PermissionError):
                break
            try:
                proc.wait(timeout=0.5 if sig != signal.SIGKILL else 5)
            except subprocess.TimeoutExpired:
                continue

    def _read_tail(self, capture: Path, size: int = 16 * 1024) -> str:
        """The end of the capture: where a faulthandler dump lands, even after a flood of output."""
        try:
            with open(capture, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - size))
                return handle.read().decode("utf-8", "replace")
        except OSError:
            return ""

    def _read_capture(self, capture: Path) -> str:
        try:
            with open(capture, "rb") as handle:
                data = handle.read(OUTPUT_CAP + 1)
        except OSError:
            return ""
        text = data[:OUTPUT_CAP].decode("utf-8", "replace")
        if len(data) > OUTPUT_CAP:
            text += f"\n… output cut at {OUTPUT_CAP // 1024} KiB"
        return text

    def log_tail(self, lines: int = 15) -> str:
        try:
            return "\n".join(self._log.read_text("utf-8", "replace").splitlines()[-lines:])
        except OSError:
            return ""


def _remove_scratch(path) -> None:
    """A judge that died cannot delete its runners' directory: do it for it (only a directory it named, of
    the shape it makes)."""
    import shutil

    if (
        isinstance(path, str)
        and os.path.basename(path).startswith("tritonlab-judge-")
        and os.path.isdir(path)
    ):
        shutil.rmtree(path, ignore_errors=True)


def _sanitize(value):
    if isinstance(value, str):
        return strip_control(value)
    if isinstance(value, dict):
        return {k: _sanitize(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_sanitize(v) for v in value]
    return value


class WorkerStartError(Exception):
    """`code`: the worker's refusal in facts ("no-gpu"), worded by the UI; None for a crash."""

    def __init__(self, message: str, tail: str = "", kind: str = "crash", code: str | None = None):
        super().__init__(message)
        self.tail = tail
        self.kind = kind
        self.code = code


_FRAME = re.compile(r'File "([^"]+)", line (\d+)')


def _learner_line(output: str, args: dict) -> int | None:
    """The learner's line in a faulthandler/traceback dump: the innermost frame in a learner file."""
    learner = args.get("file")
    frames = [
        int(line)
        for path, line in _FRAME.findall(output or "")
        if (learner and os.path.abspath(path) == os.path.abspath(learner)) or "/drafts/" in path
    ]
    if not frames:
        return None
    # faulthandler prints the most recent call first; Python tracebacks print it last.
    return frames[0] if "most recent call first" in output else frames[-1]
