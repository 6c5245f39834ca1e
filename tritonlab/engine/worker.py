"""The worker process: imports torch and triton, runs learner code, answers one JSON line per request.

Started by `client.WorkerClient` as `python -m tritonlab.engine.worker --backend auto|gpu|interpreter`.
The protocol travels on the original stdin/stdout, which are moved aside at start: the learner's code sees
/dev/null as stdin, and its stdout/stderr (Python-level and C-level alike) go to a capture file per request.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import os
import signal
import sys
import time
import traceback

from tritonlab.engine import gpu_memory


class Channel:
    def __init__(self):
        self._in = os.fdopen(os.dup(0), "rb", buffering=0)
        self._out = os.fdopen(os.dup(1), "wb", buffering=0)
        devnull = os.open(os.devnull, os.O_RDONLY)
        os.dup2(devnull, 0)
        os.close(devnull)
        os.dup2(2, 1)  # between requests, stray output goes to the worker log
        self._reader = self._lines()
        self.request_id = None

    def _lines(self):
        buffer = b""
        while True:
            chunk = self._in.read(65536)
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if line.strip():
                    yield line

    def receive(self):
        from tritonlab.engine import protocol

        try:
            return protocol.decode(next(self._reader))
        except StopIteration:
            return None

    def send(self, message: dict) -> None:
        from tritonlab.engine import protocol

        self._out.write(protocol.encode(message))

    def event(self, message: str, **extra) -> None:
        self.send({"id": self.request_id, "event": "progress", "message": message, **extra})


class Capture:
    """Point fds 1 and 2 at a file for the duration of a request."""

    def __init__(self, path: str | None):
        self.path = path

    def __enter__(self):
        sys.stdout.flush()
        sys.stderr.flush()
        self._saved = (os.dup(1), os.dup(2))
        if self.path:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            os.dup2(fd, 1)
            os.dup2(fd, 2)
            os.close(fd)
        return self

    def __exit__(self, *exc):
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:
            pass
        os.dup2(self._saved[0], 1)
        os.dup2(self._saved[1], 2)
        os.close(self._saved[0])
        os.close(self._saved[1])
        return False


class TracebackOnTimeout:
    """Make sure a request that runs past its timeout leaves a traceback in the capture file.

    The client asks with SIGUSR1 first, but a library imported later (torch, the CUDA driver) may take that
    signal over, so the handler is registered again for every request, and a watchdog thread (no signal
    needed) dumps the stacks just before the client's deadline."""

    def __init__(self, timeout):
        self.timeout = timeout if isinstance(timeout, (int, float)) and timeout > 0 else None

    def __enter__(self):
        if hasattr(signal, "SIGUSR1"):
            faulthandler.register(signal.SIGUSR1, all_threads=True)
        if self.timeout:
            faulthandler.dump_traceback_later(max(self.timeout - 1.0, self.timeout * 0.8), repeat=False)
        return self

    def __exit__(self, *exc):
        faulthandler.cancel_dump_traceback_later()
        return False


def choose_backend(requested: str) -> tuple[str, str | None]:
    """Decide gpu vs interpreter before triton is imported (TRITON_INTERPRET is read at import)."""
    if "triton" in sys.modules:  # pragma: no cover - a programming error
        raise RuntimeError("triton was imported before the backend was chosen")
    # Triton 3.9 warns that its default for fusing a*b+c into one FMA flips in 3.10; the lessons (and their
    # SASS excerpts) assume fusion on, as every Triton before 3.10 did. A learner can still set it themselves.
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    if requested == "interpreter" or os.environ.get("TRITON_INTERPRET") == "1":
        os.environ["TRITON_INTERPRET"] = "1"
        return "interpreter", None
    import torch

    has_cuda = torch.cuda.is_available()
    if requested == "gpu" and not has_cuda:
        return (
            "gpu",
            "--backend gpu was asked for, but torch sees no CUDA GPU (torch.cuda.is_available() is False)",
        )
    if not has_cuda:
        os.environ["TRITON_INTERPRET"] = "1"
        return "interpreter", None
    return "gpu", None


def hello(backend: str) -> dict:
    import numpy
    import torch
    import triton

    if backend == "interpreter":
        from tritonlab.engine.interpreter_support import prepare_interpreter

        prepare_interpreter()

    info = {
        "backend": backend,
        "python": sys.version.split()[0],
        "torch": torch.__version__,
        "triton": triton.__version__,
        "numpy": numpy.__version__,
        "pid": os.getpid(),
    }
    if backend == "gpu":
        props = torch.cuda.get_device_properties(0)
        info.update(
            device=props.name,
            capability=f"{props.major}.{props.minor}",
            sm_count=props.multi_processor_count,
            memory_gib=round(props.total_memory / 2**30, 1),
            cuda=torch.version.cuda,
        )
    else:
        info.update(device="CPU (Triton interpreter)")
    return info


OPS = ("verify", "run", "bench", "ir", "doctor", "profile")
IN_RUNNER = ("run", "bench", "ir", "profile")  # learner code: never in the judge, always in a fresh runner


def handle(op: str, args: dict, ctx) -> dict:
    if op == "ping":
        return {"pong": True, "pid": os.getpid()}
    if op == "sleep":  # used by tests of the timeout path
        time.sleep(float(args.get("seconds", 1)))
        return {"slept": True}
    if op not in OPS:
        from tritonlab.engine.protocol import error

        return {"error": error("usage", f"unknown request {op!r}", code="unknown-op", op=op)}
    if op in IN_RUNNER and ctx.pool is not None:
        return delegate(op, args, ctx)
    module = __import__(f"tritonlab.engine.tasks.{op}", fromlist=["handle"])
    return module.handle(args, ctx)


def delegate(op: str, args: dict, ctx) -> dict:
    """Run a task that executes learner code (run, bench, ir) in a fresh runner; its result is for display
    only. bench verifies first, here in the judge, and hands the runner that verdict."""
    from tritonlab.engine.protocol import error
    from tritonlab.engine.tasks import verify

    try:
        exercise = verify.exercise_env.catalog(args.get("lessons_dir"), args.get("kernels_dir")).exercise(
            args["exercise"]
        )
    except KeyError:
        exercise = None  # verify, or the task itself, refuses it with the catalog's facts
    if op in ("bench", "profile") and exercise is not None and exercise.bench is None:
        # refused before the judge verifies the kernel (seconds on the interpreter) only to be told so
        from tritonlab.engine.tasks import bench, profile

        refused = (bench if op == "bench" else profile).blank(args, ctx)
        refused.update(exercise=exercise.key, error=verify.exercise_env.no_bench(exercise.key, op))
        return refused
    judged = None
    if op in ("bench", "profile"):  # a wrong kernel is neither timed nor profiled: the judge decides first
        judged = verify.handle(dict(args), ctx)
        if judged.get("error") and judged["error"].get("kind") == "usage":
            return {"exercise": args.get("exercise"), "error": judged["error"]}
    job_args = dict(args)
    real = None
    source = None  # without it, the task itself reports the usage or load error
    if exercise is not None:
        try:
            real = verify.resolve_file(exercise, args).resolve()
            source = real.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass
    runner = ctx.pool.take()
    runner_file = None
    if source is not None:
        assert real is not None  # source is read from it
        runner_file = runner.workdir / real.name
        runner_file.write_text(source, encoding="utf-8")
        job_args.update(file=str(runner_file), solution=False)
    ceilings = bench_ceilings(op, args, ctx, judged)
    if ceilings is not None:
        job_args["ceilings"] = ceilings
    job = {"op": op, "args": job_args, "info": ctx.info, "judged": judged}

    def forward(message: dict) -> None:
        if message.get("type") == "event":
            extra = {k: message[k] for k in ("case", "total") if isinstance(message.get(k), int)}
            ctx.progress(str(message.get("message", ""))[:500], **extra)

    outcome = ctx.pool.run(job, verify._timeout(args), forward, runner=runner)
    output = outcome.output_text()
    messages = outcome.messages
    if runner_file is not None:
        output = output.replace(str(runner_file), str(real))
        messages = [verify._map_paths(m, str(runner_file), str(real)) for m in messages]
    verify._emit_output(output)
    reply = next((m for m in messages if m.get("type") == "result"), None)
    problem = verify._runner_problem(outcome, messages, output, str(real or ""))
    if reply is not None and isinstance(reply.get("result"), dict) and not outcome.violations:
        result = reply["result"]
        result.pop("restart_worker", None)  # a CUDA fault poisoned the runner's context, never the judge's
        if op in ("bench", "profile") and judged is not None:
            result["verified"] = bool(judged.get("passed"))  # the judge's word, whatever the runner said
        return result
    if problem is None:  # it ended as it should, but without its answer: the UI words `op`
        problem = error("crash", f"the runner gave no {op} result", cause="no-result", op=op)
    return {"exercise": args.get("exercise"), "error": problem, "lines": [], "rows": []}


def bench_ceilings(op: str, args: dict, ctx, judged: dict | None) -> dict | None:
    """A GPU bench of a verified kernel gets the ceilings from the judge, which keeps them cached in the user
    data dir (the runner's HOME is private and thrown away)."""
    if op != "bench" or not (judged or {}).get("passed"):
        return None
    from tritonlab.engine import ceilings

    return ceilings.for_bench(ctx.backend, bool(args.get("refresh_ceilings")), ctx.progress)


RUNNER_TIMEOUT = (
    "no answer within {s} s: the kernel may loop forever (check the loop bounds) or run far more programs "
    "than you meant. Your code was stopped (its runner process was killed); the worker stays up and the next "
    "request runs in a fresh runner."
)


def runner_timeout_facts(result: dict, timeout) -> None:
    """A timeout the judge answered itself (the runner outlived its deadline, verify._runner_problem) carried
    no seconds and said "The runner was stopped", while the client's own timeout kills the worker: give it the
    request's limit (`timeout_s`, the seconds the learner set) and say which process was stopped
    (`stopped: "runner"`; the client's is `"worker"`), so the sentence can say what happened."""
    err = result.get("error")
    if not isinstance(err, dict) or err.get("kind") != "timeout" or "stopped" in err:
        return
    if isinstance(timeout, (int, float)) and not isinstance(timeout, bool) and timeout > 0:
        err.setdefault("timeout_s", timeout)
        err["message"] = RUNNER_TIMEOUT.format(s=f"{float(err['timeout_s']):g}")
    err["stopped"] = "runner"


class Context:
    def __init__(self, backend: str, channel: Channel, pool=None):
        self.backend = backend
        self.channel = channel
        self.pool = pool  # judge.RunnerPool: where learner code runs
        self.info: dict = {}

    def progress(self, message: str, **extra) -> None:
        self.channel.event(message, **extra)


def trace_hard_exits() -> None:
    """os._exit() skips every handler: print where it was called from first, so the crash report can name the
    learner's line."""
    real_exit = os._exit

    def traced_exit(code: int = 0) -> None:
        try:
            sys.stderr.write(f"os._exit({code}) called here (most recent call last):\n")
            traceback.print_stack(sys._getframe(1), file=sys.stderr)
            sys.stderr.flush()
        finally:
            real_exit(code)

    os._exit = traced_exit  # type: ignore[assignment]  # os._exit is typed NoReturn; traced_exit ends in it


def watch_parent(interval: float = 1.0, on_orphaned=None) -> None:
    """Exit when the process that started us is gone: a worker stuck in a learner's endless loop must never
    outlive the app or CLI that owns it (a thread, because the main thread may be busy in learner code)."""
    import threading

    parent = os.getppid()

    def loop() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                if on_orphaned is not None:
                    with contextlib.suppress(Exception):
                        on_orphaned()
                os._exit(70)

    threading.Thread(target=loop, name="tritonlab-parent-watch", daemon=True).start()


def main(argv=None) -> int:
    sys.dont_write_bytecode = True  # never leave __pycache__ in lesson folders
    parser = argparse.ArgumentParser(prog="tritonlab-worker")
    parser.add_argument("--backend", default="auto", choices=["auto", "gpu", "interpreter"])
    opts = parser.parse_args(argv)
    channel = Channel()
    from tritonlab.engine import sandbox

    sandbox.forbid_inspection()  # no runner may ptrace us or open our pipes through /proc
    pool_box: list = []
    watch_parent(on_orphaned=lambda: [p.close() for p in pool_box])
    faulthandler.enable(all_threads=True)
    if hasattr(signal, "SIGUSR1"):
        faulthandler.register(signal.SIGUSR1, all_threads=True)  # the client asks for a traceback on timeout
    try:
        backend, problem = choose_backend(opts.backend)
        if problem:
            channel.send({"id": None, "error": {"kind": "usage", "message": problem, "code": "no-gpu"}})
            return 2
        from tritonlab.engine.judge import RunnerPool

        pool = RunnerPool(backend)
        pool_box.append(pool)
        pool.start()  # the zygote imports torch and triton while we do
        ctx = Context(backend, channel, pool)
        ctx.info = hello(backend)
        ctx.info["scratch"] = str(pool.root)
    except Exception as exc:
        traceback.print_exc()
        channel.send({"id": None, "error": {"kind": "crash", "message": f"worker start failed: {exc!r}"}})
        return 1
    channel.send({"id": None, "result": ctx.info})
    try:
        return serve(channel, ctx, backend)
    finally:
        pool.close()


def serve(channel: Channel, ctx: Context, backend: str) -> int:
    ctx.pool.warm()  # after the hello: the app paints while the zygote finishes its imports
    while True:
        request = channel.receive()
        if request is None or request.get("op") == "exit":
            return 0
        channel.request_id = request.get("id")
        args = dict(request.get("args") or {})
        args["_timeout"] = request.get("timeout")
        args["_received"] = time.monotonic()  # the runner's deadline counts from here, not from after set-up
        with Capture(request.get("capture")), TracebackOnTimeout(request.get("timeout")):
            try:
                result = handle(request.get("op", ""), args, ctx)
            except Exception as exc:  # an engine bug must not look like the learner's fault
                traceback.print_exc()
                full = gpu_memory.out_of_memory(exc)
                result = {
                    "error": gpu_memory.oom_error(full, "lab")  # the GPU was full: not an engine bug
                    if full is not None
                    else {
                        "kind": "runtime",
                        "cause": "internal",
                        "exception": repr(exc),
                        "message": f"internal error in the lab: {exc!r}",
                        "internal": True,
                    }
                }
        result.setdefault("backend", backend)
        runner_timeout_facts(result, request.get("timeout"))
        channel.send({"id": channel.request_id, "result": result})
        if result.get("restart_worker"):
            return 3
        ctx.pool.warm()  # the next runner forks while the learner reads this answer


if __name__ == "__main__":
    sys.exit(main())
