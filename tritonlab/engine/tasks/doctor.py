"""doctor: what the worker sees — versions, GPU, a tiny kernel on the active backend, the cache dir."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
from pathlib import Path


def _check(name, status, value, fix=None, cause=None, **facts):
    """`value` and `fix` are kept for --json readers; tritonlab.present words `cause` and the facts."""
    return {"name": name, "status": status, "value": value, "fix": fix, "cause": cause, **facts}


def handle(args: dict, ctx) -> dict:
    import numpy
    import torch
    import triton

    checks = []
    backend = ctx.backend
    checks.append(
        _check(
            "python",
            "ok" if sys.version_info >= (3, 10) else "fail",
            sys.version.split()[0],
            "TritonLab needs Python 3.10 or newer",
            cause="python-version",
            version=sys.version.split()[0],
        )
    )
    checks.append(_check("torch", "ok", torch.__version__))
    checks.append(_check("triton", "ok", triton.__version__))
    np_major_minor = tuple(int(p) for p in numpy.__version__.split(".")[:2])
    np_bad = np_major_minor >= (2, 4)
    repaired = False
    if np_bad and backend == "interpreter":
        from tritonlab.engine.interpreter_support import repair_scalar_index

        repaired = repair_scalar_index()  # idempotent: the worker already did it at start-up
    if not np_bad or repaired:
        checks.append(
            _check(
                "numpy",
                "ok",
                numpy.__version__
                + (
                    " (TritonLab repairs the interpreter's scalar-to-int conversion that numpy >= 2.4 broke)"
                    if repaired
                    else ""
                ),
                cause="numpy-repaired" if repaired else None,
                version=numpy.__version__,
            )
        )
    else:
        checks.append(
            _check(
                "numpy",
                "fail" if backend == "interpreter" else "warn",
                numpy.__version__,
                "Triton's CPU interpreter breaks with numpy >= 2.4 ('only 0-dimensional arrays can be "
                "converted to "
                "Python scalars') and TritonLab could not repair it here: pip install 'numpy<2.4'",
                cause="numpy-broken",
                version=numpy.__version__,
            )
        )
    cuda = torch.cuda.is_available()
    checks.append(
        _check(
            "cuda",
            "ok" if cuda else "info",
            f"CUDA {torch.version.cuda}" if cuda else "no CUDA GPU visible to torch",
            None if cuda else "kernels run on Triton's CPU interpreter (slow, but every lesson works)",
            cause="cuda" if cuda else "no-cuda",
            version=torch.version.cuda,
        )
    )
    if cuda:
        props = torch.cuda.get_device_properties(0)
        cc = (props.major, props.minor)
        checks.append(
            _check(
                "gpu",
                "ok",
                f"{props.name}, {props.multi_processor_count} SMs, {props.total_memory / 2**30:.0f} GiB",
                cause="gpu",
                device=props.name,
                sms=props.multi_processor_count,
                gib=round(props.total_memory / 2**30),
            )
        )
        checks.append(
            _check(
                "compute capability",
                "ok" if cc >= (7, 5) else "warn",
                f"{cc[0]}.{cc[1]}",
                None if cc >= (7, 5) else "Triton supports compute capability 7.5 (Turing) and newer",
                cause="cc",
                cc=f"{cc[0]}.{cc[1]}",
                supported=cc >= (7, 5),
            )
        )
        try:
            driver = torch.cuda.driver_version() if hasattr(torch.cuda, "driver_version") else None
        except Exception:
            driver = None
        if driver is None:
            try:
                import subprocess

                driver = (
                    subprocess.run(
                        ["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                        capture_output=True,
                        text=True,
                        timeout=10,
                    ).stdout.strip()
                    or None
                )
            except Exception:
                driver = None
        checks.append(
            _check("driver", "ok" if driver else "info", driver or "unknown", cause="driver", version=driver)
        )
    checks.append(
        _check(
            "backend",
            "ok",
            "GPU"
            if backend == "gpu"
            else "Triton interpreter (TRITON_INTERPRET=1) — timings are not GPU timings",
            cause="backend",
            backend=backend,
        )
    )
    checks.append(_tiny_kernel(backend))
    checks.append(_lesson_features(backend))
    checks.append(_cache_dir())
    checks.append(_sandbox())
    ok = all(c["status"] != "fail" for c in checks)
    return {"backend": backend, "ok": ok, "checks": checks}


def _tiny_kernel(backend: str) -> dict:
    import torch

    source = """
import triton
import triton.language as tl

@triton.jit
def copy_kernel(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(y_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)
"""
    try:
        from tritonlab.engine.learner import load_module

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "doctor_copy.py"
            path.write_text(source)
            module = load_module(path)
            device = "cuda" if backend == "gpu" else "cpu"
            x = torch.arange(1000, dtype=torch.float32, device=device)
            y = torch.empty_like(x)
            module.copy_kernel[(4,)](x, y, 1000, BLOCK=256)
            if device == "cuda":
                torch.cuda.synchronize()
            good = torch.equal(x, y)
        where = "on the GPU" if backend == "gpu" else "on the interpreter"
        return {
            "name": "sanity kernel",
            "status": "ok" if good else "fail",
            "value": f"a copy kernel ran {where} and {'matched' if good else 'did NOT match'}",
            "fix": None
            if good
            else "the kernel ran but produced wrong values: check the triton/torch versions",
            "cause": "sanity-ok" if good else "sanity-wrong",
            "backend": backend,
        }
    except Exception as exc:
        detail = getattr(exc, "info", {}).get("message") if hasattr(exc, "info") else None
        return {
            "name": "sanity kernel",
            "status": "fail",
            "value": detail or f"{type(exc).__name__}: {exc}",
            "fix": "the environment cannot run a Triton kernel: see the message; reinstall triton/torch",
            "cause": "sanity-failed",
            "exception": detail or f"{type(exc).__name__}: {exc}",
        }


def _lesson_features(backend: str) -> dict:
    """Which Triton features the lessons use (verify.requires) this install lacks: those exercises are skipped
    with the reason, so the learner should hear it here first (lesson 13: descriptors, warp
    specialization)."""
    from tritonlab.engine import features

    have = features.available(backend)
    have.pop("gpu", None)  # the backend check above already says whether kernels run on a GPU
    missing = [name for name, ok in have.items() if not ok]
    return _check(
        "lesson features",
        "warn" if missing else "ok",
        ("missing: " + ", ".join(missing)) if missing else "all: " + ", ".join(have),
        "upgrade Triton (pip install -U triton) to run the exercises that need them" if missing else None,
        cause="features-missing" if missing else "features-all",
        missing=missing,
        available=sorted(name for name, ok in have.items() if ok),
    )


def _sandbox() -> dict:
    """What a runner here gets: a forked child installs the seccomp signal filter and tries to signal this
    process (older than the child: must be refused) and its own child (must work); then it hides a scratch
    folder with Landlock and tries to read a file in it (must be refused)."""
    import signal

    from tritonlab.engine import sandbox

    if os.environ.get("TRITONLAB_SANDBOX", "on") == "off":
        return _check(
            "sandbox",
            "warn",
            "switched off (TRITONLAB_SANDBOX=off)",
            "unset TRITONLAB_SANDBOX to confine learner code again",
            cause="sandbox-disabled",
        )
    scratch = tempfile.mkdtemp(prefix="tritonlab-doctor-")
    secret = os.path.join(scratch, "secret")
    with open(secret, "w") as handle:
        handle.write("x")
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - runs in the child
        signals = files = False
        try:
            if sandbox.guard_signals():
                try:
                    os.kill(os.getppid(), signal.SIGCONT)  # allowed: the filter did not hold
                except PermissionError:
                    grandchild = os.fork()
                    if grandchild == 0:
                        time.sleep(5)
                        os._exit(0)
                    os.kill(grandchild, signal.SIGKILL)
                    os.waitpid(grandchild, 0)
                    signals = True
            if sandbox.hide_folder(scratch):
                try:
                    with open(secret) as handle:
                        handle.read()
                except PermissionError:
                    files = True
        except Exception:  # noqa: BLE001 - any failure is "not confined"
            pass
        os.write(write, bytes([int(signals) | int(files) << 1]))
        os._exit(0)
    os.close(write)
    os.waitpid(child, 0)
    got = os.read(read, 1)
    os.close(read)
    with contextlib.suppress(OSError):
        os.unlink(secret)
        os.rmdir(scratch)
    code = got[0] if got else 0
    signals, files = bool(code & 1), bool(code & 2)
    cause = "sandbox-on" if signals and files else "sandbox-signals" if signals else "sandbox-off"
    return _check(
        "sandbox",
        "ok" if signals else "warn",
        {
            "sandbox-on": "signals and the lab's data refused",
            "sandbox-signals": "signals refused; data readable",
        }.get(cause, "no confinement here"),
        None if signals else "learner code can signal the lab's processes here (no seccomp on this kernel)",
        cause=cause,
        signals=signals,
        files=files,
    )


def _cache_dir() -> dict:
    path = Path(os.environ.get("TRITON_CACHE_DIR") or Path.home() / ".triton" / "cache")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path, prefix=".tritonlab-check-"):
            pass
        return _check("cache dir", "ok", f"{path} is writable", cause="cache-ok", path=str(path))
    except OSError as exc:
        return _check(
            "cache dir",
            "fail",
            f"{path}: {exc.strerror}",
            "set TRITON_CACHE_DIR to a writable folder",
            cause="cache-fail",
            path=str(path),
            exception=exc.strerror,
        )
