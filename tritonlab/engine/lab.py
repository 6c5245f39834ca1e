"""The one door to the engine: the CLI, the app and the developer check talk to kernels only through `Lab`.

A `Lab` owns the kernel worker (kept warm between requests), the interpreter worker that replays or audits GPU
verifies on the bounds checker (started on first use, then kept warm), and the temp folders both use. It
returns typed results (`engine.results`); deciding what to do with them (marking progress, words, colours) is
the caller's.

No torch, no triton, no Textual: the UI process imports this module.
"""

from __future__ import annotations

import contextlib
import shutil
import threading
from collections.abc import Callable
from typing import Any

from tritonlab.engine import replay
from tritonlab.engine.client import WorkerClient
from tritonlab.engine.results import (
    BenchResult,
    DoctorResult,
    Error,
    IrResult,
    Kind,
    ProfileResult,
    RunResult,
    VerifyResult,
)

#: A progress callback gets the worker's event facts: {"event": "progress", "message": ..., "case": i,
#: "total": n}.
#: The replay step sends {"event": "progress", "stage": "replay"} (the caller words it).
Progress = Callable[[dict], None]

DEFAULT_TIMEOUTS = {
    "verify": 120.0,
    "run": 120.0,
    "bench": 600.0,
    "ir": 120.0,
    "doctor": 180.0,
    "profile": 300.0,
}


class Lab:
    """Verify, run, bench, ir and doctor over an untrusted worker process; `cancel` from any thread; `close`
    ends the workers and removes their temp folders."""

    def __init__(self, backend: str = "auto", *, client: Any = None, replay_client: Any = None) -> None:
        self.backend = backend
        self.client = client if client is not None else WorkerClient(backend=backend)
        self._replay_client = replay_client
        self._lock = threading.Lock()
        self._replay_lock = threading.Lock()  # one replay or audit at a time on the interpreter worker
        self._cancelled = False
        self._auditing = False

    # ---- lifecycle -----------------------------------------------------------------------------------------

    @property
    def info(self) -> dict:
        """The worker's hello (backend, device, versions); {} until it started."""
        return dict(getattr(self.client, "info", None) or {})

    @property
    def last_exit(self) -> str | None:
        """How the last worker ended (e.g. 'SIGSEGV (…)'), for the restart notice."""
        return getattr(self.client, "last_exit", None)

    @property
    def replay_worker(self) -> Any:
        """The interpreter worker kept warm for replays, or None before the first replay."""
        return self._replay_client

    def start(self) -> dict:
        """Start the kernel worker now (it imports torch: seconds) and return its hello."""
        return self.client.start()

    def cancel(self) -> None:
        """Stop whatever is running — the kernel request or the replay — from any thread."""
        with self._lock:
            self._cancelled = True
            replaying = self._replay_client
        self.client.cancel()
        if replaying is not None:
            replaying.cancel()

    def close(self) -> None:
        """End both workers and remove their temp folders. Safe to call twice."""
        for client in (self.client, self._replay_client):
            if client is None:
                continue
            with contextlib.suppress(OSError):
                client.close()
            folder = getattr(client, "_dir", None)
            if folder is not None:
                shutil.rmtree(folder, ignore_errors=True)

    def __enter__(self) -> Lab:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- the requests --------------------------------------------------------------------------------------

    def verify(
        self,
        args: dict,
        *,
        timeout: float | None = None,
        on_progress: Progress | None = None,
        audit: str = "now",
    ) -> VerifyResult:
        """Check the code against torch on every case. On a GPU, a fault, a guard-zone hit or a small wrong
        case is replayed on the interpreter's bounds checker (which names the line: the verdict needs it),
        and a pass is audited there for out-of-bounds reads the GPU cannot see.

        `audit="later"`: a GPU pass comes back at once with `audit={"state": "pending"}`; the caller runs
        `audit(result, args)` when it likes (the learner sees the GPU verdict without waiting seconds for the
        interpreter)."""
        if audit not in ("now", "later"):
            raise ValueError(f"audit must be 'now' or 'later', not {audit!r}")
        timeout = timeout or DEFAULT_TIMEOUTS["verify"]
        raw = self._request("verify", args, timeout, on_progress)
        inline = audit == "now"
        if not self._was_cancelled() and replay.will_replay(raw, audit=inline):
            if on_progress is not None:
                on_progress({"event": "progress", "stage": "replay"})
            with self._replay_lock:
                raw = replay.with_replay(raw, args, timeout=timeout, client=self._replayer(), audit=inline)
        if not inline and replay.needs_audit(raw):
            raw["audit"] = {"state": "pending"}
        raw.setdefault("exercise", args.get("exercise"))
        raw.setdefault("passed", False)
        raw.setdefault("cases", [])
        return VerifyResult.from_json(raw)

    def audit(self, result: VerifyResult, args: dict, *, timeout: float | None = None) -> VerifyResult:
        """Run the pending interpreter audit of a GPU pass (`verify(..., audit="later")`) and return the
        result as it would have been with the audit inline, `audit["state"]` saying what it found:
        "clean" (the pass stands), "found" (an out-of-bounds access, a byte-budget overrun, a copied answer
        or a failed interpreter case: `passed` is now False) or "incomplete" (the audit could not finish; the
        GPU pass stands). A result with nothing pending comes back unchanged."""
        raw = result.to_json()
        if (raw.get("audit") or {}).get("state") != "pending":
            return result
        raw.pop("audit")
        with self._replay_lock:
            with self._lock:
                self._auditing = True
            try:
                raw = replay.with_replay(
                    raw, args, timeout=timeout or DEFAULT_TIMEOUTS["verify"], client=self._replayer()
                )
            finally:
                with self._lock:
                    self._auditing = False
        found = replay.audit_state(raw)
        raw["audit"] = {"state": found}
        return VerifyResult.from_json(raw)

    def cancel_audit(self) -> None:
        """Stop a running audit (the learner started a new request: the old code's audit no longer
        matters)."""
        with self._lock:
            replaying = self._replay_client if self._auditing else None  # never kill an idle warm worker
        if replaying is not None:
            replaying.cancel()

    def run(
        self, args: dict, *, timeout: float | None = None, on_progress: Progress | None = None
    ) -> RunResult:
        return RunResult.from_json(
            self._request("run", args, timeout or DEFAULT_TIMEOUTS["run"], on_progress)
        )

    def bench(
        self, args: dict, *, timeout: float | None = None, on_progress: Progress | None = None
    ) -> BenchResult:
        return BenchResult.from_json(
            self._request("bench", args, timeout or DEFAULT_TIMEOUTS["bench"], on_progress)
        )

    def ir(
        self, args: dict, *, timeout: float | None = None, on_progress: Progress | None = None
    ) -> IrResult:
        return IrResult.from_json(self._request("ir", args, timeout or DEFAULT_TIMEOUTS["ir"], on_progress))

    def profile(
        self, args: dict, *, timeout: float | None = None, on_progress: Progress | None = None
    ) -> ProfileResult:
        """Where one call of the wrapper spends its time, kernel by kernel (GPU), or its launches
        (interpreter)."""
        return ProfileResult.from_json(
            self._request("profile", args, timeout or DEFAULT_TIMEOUTS["profile"], on_progress)
        )

    def doctor(self, *, timeout: float | None = None, on_progress: Progress | None = None) -> DoctorResult:
        """The worker's environment checks (Python, torch, triton, numpy, CUDA, a test kernel)."""
        raw = self._request("doctor", {}, timeout or DEFAULT_TIMEOUTS["doctor"], on_progress)
        if raw.get("error"):
            return DoctorResult.from_json(
                {"ok": False, "backend": raw.get("backend", self.backend), "checks": [], **raw}
            )
        checks = list(raw.get("checks", []))
        raw["ok"] = all(c.get("status") != "fail" for c in checks)
        raw["worker"] = self.info
        return DoctorResult.from_json(raw)

    def request(
        self,
        op: str,
        args: dict,
        *,
        timeout: float | None = None,
        on_progress: Progress | None = None,
        audit: str = "now",
    ) -> VerifyResult | RunResult | BenchResult | IrResult | ProfileResult:
        """Dispatch by op name (the app's action bar and the developer check pick the op at run time);
        `audit` is verify's."""
        if op == "verify":
            return self.verify(args, timeout=timeout, on_progress=on_progress, audit=audit)
        if op == "run":
            return self.run(args, timeout=timeout, on_progress=on_progress)
        if op == "bench":
            return self.bench(args, timeout=timeout, on_progress=on_progress)
        if op == "ir":
            return self.ir(args, timeout=timeout, on_progress=on_progress)
        if op == "profile":
            return self.profile(args, timeout=timeout, on_progress=on_progress)
        raise ValueError(f"unknown op {op!r}")

    # ---- plumbing ------------------------------------------------------------------------------------------

    def _request(self, op: str, args: dict, timeout: float, on_progress: Progress | None) -> dict:
        with self._lock:
            self._cancelled = False
        result = self.client.request(op, args, timeout=timeout, on_event=on_progress)
        if "backend" not in result and self.info:
            result["backend"] = self.info.get("backend")
        return result

    def _was_cancelled(self) -> bool:
        with self._lock:
            return self._cancelled

    def _replayer(self) -> Any:
        """The interpreter worker for replays: started on first use, then kept warm (a GPU verify must not pay
        an interpreter start-up every time)."""
        with self._lock:
            if self._replay_client is None:
                self._replay_client = WorkerClient(backend="interpreter")
            return self._replay_client


def is_usage_error(result: VerifyResult | RunResult | BenchResult | IrResult | DoctorResult) -> bool:
    """The worker refused the request itself (bad exercise, bad stage): the CLI exits 2 on it."""
    return isinstance(result.error, Error) and result.error.known is Kind.USAGE
