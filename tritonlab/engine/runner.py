"""The untrusted side: a pre-imported zygote that forks one fresh runner per request.

Started by the judge (`judge.RunnerPool`) as `python -m tritonlab.engine.runner --backend B --socket FD`, in a
scrubbed environment. The zygote imports torch, triton and the engine once and never runs learner code. For
each request the judge sends it three pipe ends over a unix socket (SCM_RIGHTS): the zygote forks a runner,
which starts its own session, dies with the zygote, points fds 0/1/2 at the job pipe and the output pipe,
moves into its private directory, warms up (CUDA context on a GPU) and waits for its one job. After the job
it exits; nothing it loaded outlives the request, and a crash, a leak or a monkeypatch dies with it.

The runner hands back only facts: per case its outputs (a torch.save file the judge re-validates), its launch
records and the provenance facts (engine/tasks/verify_runner.py). The verdict is not made here.
"""

from __future__ import annotations

import argparse
import contextlib
import faulthandler
import json
import os
import signal
import socket
import sys
import time
import traceback
from typing import Any

MAX_MESSAGE = 1 << 16


def _close_other_fds(keep: set[int]) -> None:
    try:
        fds = [int(fd) for fd in os.listdir("/proc/self/fd")]
    except OSError:
        fds = list(range(3, 256))
    for fd in fds:
        if fd not in keep:
            with contextlib.suppress(OSError):
                os.close(fd)


class RunnerContext:
    """What a task handler sees in a runner: the backend, the judge's hello and a progress callback that
    travels on the result pipe (the judge decides whether to pass it on)."""

    def __init__(self, backend: str, info: dict, send, judged: dict | None = None):
        self.backend = backend
        self.info = info
        self._send = send
        self.judged = judged  # bench: the judge's own verify result, so the runner never re-decides it

    def progress(self, message: str, **extra) -> None:
        counts: dict[str, Any] = {k: extra[k] for k in ("case", "total") if k in extra}
        self._send({"type": "event", "message": str(message)[:500], **counts})


def _runner(backend: str, workdir: str, result_fd: int, limits: dict) -> None:
    """The forked child: never returns."""
    write = os.write  # bound now: a learner that replaces os.write later does not change what we send
    leave = os._exit  # before trace_hard_exits wraps it: our own exit is not the learner's

    def send(message: dict) -> None:
        from tritonlab.engine import protocol

        data = protocol.encode(message)
        while data:
            data = data[write(result_fd, data) :]

    code = 0
    try:
        os.setsid()
        from tritonlab.engine import sandbox

        sandbox.die_with_parent()
        if limits.get("confine", True):
            sandbox.guard_signals()  # no signal to the judge, the zygote or the app (older pids): EPERM
            # the learner's drafts, progress, settings: not even readable (Landlock, where the kernel has it)
            sandbox.hide_folder(limits.get("hide"), keep=("cache",))
        os.chdir(workdir)
        for key in ("HOME", "TMPDIR", "TMP", "TEMP", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"):
            os.environ[key] = workdir
        import tempfile

        tempfile.tempdir = workdir
        faulthandler.enable(file=sys.stderr, all_threads=True)
        if hasattr(signal, "SIGUSR1"):
            faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)
        from tritonlab.engine.worker import trace_hard_exits

        trace_hard_exits()
        if backend == "gpu":
            import torch

            torch.cuda.init()
            torch.empty(1, device="cuda")
            torch.cuda.synchronize()
            if hasattr(signal, "SIGUSR1"):  # again: the CUDA libraries may have taken the signal over
                faulthandler.register(signal.SIGUSR1, file=sys.stderr, all_threads=True)
            try:
                from tritonlab.engine import warm_kernel
                from tritonlab.engine.tasks import verify_runner

                warm_kernel.launch()  # Triton's first-launch set-up, paid while the runner waits for a job
                verify_runner.warm_up(backend, workdir)  # and torch's first use of each op a verify makes
            except Exception:  # noqa: BLE001 - an optimisation: without it the first case pays instead
                pass  # (silent: the runner's output is the learner's to read)
        line = b""
        while not line.endswith(b"\n"):
            chunk = os.read(0, 1 << 20)
            if not chunk:
                leave(0)  # the judge closed the job pipe: a spare that is no longer needed
            line += chunk
        job = json.loads(line.decode("utf-8"))
        address_space = limits.get("address_space")
        if address_space and backend == "interpreter":  # the lab's own far-rows input (judge: verify.py)
            address_space += int(job.get("address_space_extra") or 0)
        sandbox.limit_resources(
            address_space=address_space if backend == "interpreter" else None,
            cpu_seconds=job.get("cpu_seconds"),
            file_size=limits.get("file_size"),
        )
        send({"type": "started", "pid": os.getpid()})
        profile_dir = os.environ.get("TL_RUNNER_PROFILE")  # developers: cProfile each job into this folder
        if profile_dir:
            import cProfile

            profiler = cProfile.Profile()
            profiler.runcall(_run_job, job, backend, send)
            profiler.dump_stats(os.path.join(profile_dir, f"{job.get('op')}-{os.getpid()}.prof"))
        else:
            _run_job(job, backend, send)
        send({"type": "done"})
    except BaseException as exc:  # noqa: BLE001 - the runner reports its own bugs; the judge decides what they mean
        try:
            traceback.print_exc()
            internal: dict[str, Any] = {"type": "internal", "message": traceback.format_exc()[-2000:]}
            from tritonlab.engine import gpu_memory

            full = gpu_memory.out_of_memory(exc)
            if full is not None:  # the GPU was full in the lab's own code (inputs, comparison): not a lab bug
                internal["oom"] = gpu_memory.oom_error(full, "lab")
            send(internal)
        except Exception:  # noqa: BLE001
            pass
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # noqa: BLE001
            pass
        leave(code)


def _run_job(job: dict, backend: str, send) -> None:
    if job.get("op") == "verify":
        from tritonlab.engine.tasks import verify_runner

        verify_runner.run(job, backend, send)
        return
    op = job.get("op")
    module = __import__(f"tritonlab.engine.tasks.{op}", fromlist=["handle"])
    ctx = RunnerContext(backend, job.get("info") or {}, send, judged=job.get("judged"))
    result = module.handle(job.get("args") or {}, ctx)
    send({"type": "result", "result": result})


def _fork_runner(backend: str, fds: list[int], workdir: str, limits: dict, sock: socket.socket) -> int:
    job_fd, result_fd, out_fd = fds
    pid = os.fork()
    if pid == 0:
        try:
            sock.close()
            os.dup2(job_fd, 0)
            os.dup2(out_fd, 1)
            os.dup2(out_fd, 2)
            if result_fd in (0, 1, 2):  # cannot happen with the judge's fds, but never send on a std stream
                result_fd = os.dup(result_fd)
            _close_other_fds({0, 1, 2, result_fd})
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
        except BaseException:  # noqa: BLE001
            os._exit(1)
        _runner(backend, workdir, result_fd, limits)
    for fd in fds:
        os.close(fd)
    return pid


def _wait(pid: int, timeout: float) -> dict:
    deadline = time.monotonic() + timeout
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:
            return {"status": None}
        if done:
            if os.WIFSIGNALED(status):
                return {"status": -os.WTERMSIG(status)}
            return {"status": os.WEXITSTATUS(status)}
        if time.monotonic() >= deadline:
            return {"running": True}
        time.sleep(0.01)


def _warm_up(backend: str) -> None:
    """Pay every first-call cost once, here, so no forked runner pays it again: the lesson catalog, and on the
    interpreter one case of the shipped vector-add solution (our own code, never a learner's) through the very
    path a verify takes. Never on a GPU: the zygote must not create a CUDA context before it forks."""
    import tempfile

    try:
        from tritonlab.engine import exercise_env

        exercise_env.catalog()
        import torch

        # The guarded allocator shapes a learner's `torch.empty_like` on the meta device, whose first use
        # imports torch's symbolic shapes and sympy: 1.9 s of every GPU runner's first case (H200,
        # 2026-12-03), now paid once here (no CUDA: the meta device needs none).
        torch.empty_like(torch.empty(2, 3, device="meta").t())
        if backend != "interpreter":
            return

        # An OpenMP thread team started here would deadlock the first parallel torch op of every forked child:
        # the zygote and its runners stay on one intra-op thread (the interpreter is single-threaded Python).
        torch.set_num_threads(1)

        from tritonlab.engine.tasks import verify_runner

        with tempfile.TemporaryDirectory(prefix="tritonlab-warm-") as scratch:
            verify_runner.warm_up(backend, scratch)
    except Exception:  # noqa: BLE001 - a warm-up is an optimisation: a failure only costs time later
        traceback.print_exc()


def zygote(backend: str, sock_fd: int) -> int:
    """Import everything once, then fork runners on request until the judge goes away."""
    sys.dont_write_bytecode = True
    sock = socket.socket(fileno=sock_fd)
    from tritonlab.engine import sandbox

    sandbox.forbid_inspection()
    os.environ["TRITON_INTERPRET"] = (
        "1" if backend == "interpreter" else os.environ.get("TRITON_INTERPRET", "0")
    )
    if backend != "interpreter":
        os.environ.pop("TRITON_INTERPRET", None)
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    import numpy  # noqa: F401
    import torch  # noqa: F401
    import triton  # noqa: F401

    if backend == "interpreter":
        from tritonlab.engine.interpreter_support import prepare_interpreter

        prepare_interpreter()
    from tritonlab.engine import op_launches

    op_launches.install()  # wrap_triton marks its launches: a bare launch inside a triton_op is seen
    with contextlib.suppress(Exception):  # an older torch: no triton_op, nothing to pay for
        # `@triton_op` scans the decorated function for kernels with torch._inductor's helpers, which import
        # torch._dynamo: 1.3-1.5 s of every lesson-12 runner on a 2-core VM (the whole verify took 1.8 s),
        # paid here once per worker instead (torch.compile's checks on a GPU need it too)
        import torch._inductor.utils  # noqa: F401
    # everything a runner needs, imported once so that a fork is all a request pays
    from tritonlab.engine import diagnose, exercise_env, inputs, learner, memcheck, protocol  # noqa: F401
    from tritonlab.engine.tasks import verify_runner  # noqa: F401

    _warm_up(backend)
    sock.sendall(json.dumps({"ready": True, "pid": os.getpid()}).encode())
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, MAX_MESSAGE, 3)
        except OSError:
            return 0
        if not data:
            return 0
        request = json.loads(data.decode("utf-8"))
        if request.get("op") == "fork":
            pid = _fork_runner(backend, list(fds), request["workdir"], request.get("limits") or {}, sock)
            sock.sendall(json.dumps({"pid": pid}).encode())
        elif request.get("op") == "wait":
            for fd in fds:
                os.close(fd)
            sock.sendall(json.dumps(_wait(int(request["pid"]), float(request.get("timeout", 0)))).encode())
        else:
            for fd in fds:
                os.close(fd)
            sock.sendall(json.dumps({"error": "unknown op"}).encode())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="tritonlab-runner")
    parser.add_argument("--backend", required=True, choices=["gpu", "interpreter"])
    parser.add_argument("--socket", type=int, required=True)
    opts = parser.parse_args(argv)
    try:
        return zygote(opts.backend, opts.socket)
    except Exception:  # noqa: BLE001
        traceback.print_exc()
        return 1


if __name__ == "__main__":
    sys.exit(main())
