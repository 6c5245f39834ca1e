"""Compile the learner's kernel to one of Triton's stages (ttir, ttgir, llir, ptx, sass) for a chosen GPU.

The kernel is found the way the lab runs it: the exercise's wrapper is called once on small inputs and the
first @triton.jit launch is caught *instead of* running. Its function, arguments and keyword arguments give
the signature (tensor dtypes → "*fp32", integers → "i32", alignment hints) and the constexpr values, through
the same binder Triton uses at launch, so the IR is the one the real launch would compile.

Triton only compiles real JITFunctions. Under TRITON_INTERPRET=1 (the worker on a machine without a GPU)
`triton.jit` returns InterpretedFunction, and an interpreted run leaves `triton.language` patched, so the
compile runs in a fresh process without TRITON_INTERPRET: `python -m tritonlab.engine.kernel_ir IN.json
OUT.json`. No GPU is needed to compile: Triton's bundled ptxas makes the cubin, and cuobjdump (also bundled)
reads SASS and the register count from it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

STAGES = ("ttir", "ttgir", "llir", "ptx", "sass")
DEFAULT_ARCH = "sm_90"
TEXT_CAP = 4_000_000


class Captured(BaseException):
    """Raised in the wrapper at the first launch; a BaseException, so `except Exception` lets it by."""


@dataclasses.dataclass
class Launch:
    fn: Any  # the JITFunction
    args: tuple
    kwargs: dict
    config: str | None = None  # the autotune config used, when the kernel is under @triton.autotune
    configs: int = 0  # how many configs the autotuner has


MIN_ARCH = 75  # Triton targets sm_75 and newer


class ArchError(ValueError):
    """A refused --arch. The text is English (as before); `facts` (`code` "arch-format" or "arch-too-old",
    `arch`, `minimum`) are for the UI to word in the learner's language."""

    def __init__(self, message: str, **facts: Any) -> None:
        super().__init__(message)
        self.facts = facts


def parse_arch(arch: str | int | None) -> int:
    """'sm_90', 'sm_90a', '90', '9.0', 90 → 90."""
    if arch is None:
        arch = DEFAULT_ARCH
    text = str(arch).strip().lower()
    match = re.fullmatch(r"(?:sm_?|compute_?)?(\d+)(?:\.(\d))?[af]?", text)
    if not match:
        raise ArchError(
            f"--arch {arch!r}: expected sm_NN such as sm_80, sm_89, sm_90 or sm_100",
            code="arch-format",
            arch=str(arch),
        )
    major, minor = match.groups()
    value = int(major) * 10 + int(minor) if minor is not None else int(major)
    if value < MIN_ARCH:
        raise ArchError(
            f"--arch {arch!r}: Triton targets sm_{MIN_ARCH} and newer",
            code="arch-too-old",
            arch=str(arch),
            minimum=f"sm_{MIN_ARCH}",
        )
    return value


@contextlib.contextmanager
def capture_first_launch():
    """While active, the first JITFunction launch is recorded and stopped (raises Captured); nothing runs.

    An autotuned kernel would benchmark every config first, which needs a GPU and time: the autotuner is
    short-circuited to its first config, and the launch records which one.
    """
    from triton.runtime.jit import JITFunction

    records: list[Launch] = []
    original_run = JITFunction.run
    autotuner_cls = _autotuner_class()
    original_tune = getattr(autotuner_cls, "run", None) if autotuner_cls else None

    def run(self, *args, grid=None, warmup=False, **kwargs):
        records.append(Launch(self, args, kwargs))
        raise Captured()

    def tune(self, *args, **kwargs):
        config = self.configs[0]
        kwargs = {**kwargs, **_config_kwargs(config)}
        try:
            return self.fn.run(*args, **kwargs)
        except Captured:
            if records:
                records[-1].config = describe_config(config)
                records[-1].configs = len(self.configs)
            raise

    JITFunction.run = run
    if original_tune is not None:
        autotuner_cls.run = tune
    try:
        yield records
    finally:
        JITFunction.run = original_run
        if original_tune is not None:
            autotuner_cls.run = original_tune


def _autotuner_class():
    try:
        from triton.runtime.autotuner import Autotuner

        return Autotuner
    except ImportError:  # pragma: no cover - very old triton
        return None


def _config_kwargs(config) -> dict:
    if hasattr(config, "all_kwargs"):
        return config.all_kwargs()
    extra = {
        k: getattr(config, k) for k in ("num_warps", "num_stages", "num_ctas") if getattr(config, k, None)
    }
    return {**config.kwargs, **extra}


def describe_config(config) -> str:
    parts = [f"{k}={v}" for k, v in getattr(config, "kwargs", {}).items()]
    for name in ("num_warps", "num_stages", "num_ctas", "maxnreg"):
        value = getattr(config, name, None)
        if value is not None and not (name == "num_ctas" and value == 1):
            parts.append(f"{name}={value}")
    return ", ".join(parts)


def make_target(capability: int):
    from triton.backends.compiler import GPUTarget

    return GPUTarget("cuda", capability, 32)


def local_target():
    """The GPU this process runs on, or None."""
    try:
        import torch

        if not torch.cuda.is_available():
            return None
        from triton.runtime import driver

        return driver.active.get_current_target()
    except Exception:  # noqa: BLE001
        return None


def compile_launch(launch: Launch, target):
    """triton.compile the captured launch for `target`, specialised exactly as a launch would be."""
    import triton
    from triton.compiler import ASTSource

    fn, args, kwargs = launch.fn, launch.args, dict(launch.kwargs)
    try:
        from triton.compiler import make_backend
    except ImportError:  # pragma: no cover
        from triton.compiler.compiler import make_backend
    backend = make_backend(target)
    binder_factory = _binder_factory()
    if binder_factory is not None and hasattr(fn, "_pack_args") and hasattr(fn, "params"):
        binder = binder_factory(fn.signature, fn.params, backend)
        bound, specialization, options = binder(*args, **kwargs)
        options, signature, constexprs, attrs = fn._pack_args(backend, kwargs, bound, specialization, options)
        source = ASTSource(fn, signature, constexprs, attrs)
        return triton.compile(source, target=target, options=options.__dict__)
    signature, constexprs, options = _manual_signature(fn, args, kwargs)  # Triton versions without _pack_args
    source = ASTSource(fn, signature, constexprs)
    return triton.compile(source, target=target, options=options)


def _binder_factory():
    try:
        from triton.runtime.jit import create_function_from_signature

        return create_function_from_signature
    except ImportError:
        return None


_DTYPE_NAMES = {
    "float32": "fp32",
    "float16": "fp16",
    "bfloat16": "bf16",
    "float64": "fp64",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint8": "u8",
    "bool": "i1",
    "float8_e4m3fn": "fp8e4nv",
    "float8_e5m2": "fp8e5",
}


def _manual_signature(fn, args, kwargs) -> tuple[dict, dict, dict]:
    """Signature {name: type | "constexpr"} and constexprs {(index,): value}, without alignment hints."""
    import inspect

    sig = inspect.signature(fn.fn)
    names = list(sig.parameters)
    known = {k: v for k, v in kwargs.items() if k in names}
    bound = sig.bind(*args, **known)
    bound.apply_defaults()
    constexpr_index = set(getattr(fn, "constexprs", []))
    signature, constexprs = {}, {}
    for index, name in enumerate(names):
        value = bound.arguments[name]
        if index in constexpr_index:
            signature[name] = "constexpr"
            constexprs[(index,)] = value
        elif hasattr(value, "data_ptr") and hasattr(value, "dtype"):
            signature[name] = "*" + _DTYPE_NAMES.get(str(value.dtype).replace("torch.", ""), "fp32")
        elif isinstance(value, bool):
            signature[name] = "i1"
        elif isinstance(value, int):
            signature[name] = "i32" if -(2**31) <= value < 2**31 else "i64"
        elif isinstance(value, float):
            signature[name] = "fp32"
        elif value is None:
            signature[name] = "constexpr"
            constexprs[(index,)] = None
        else:
            signature[name] = "constexpr"
            constexprs[(index,)] = value
    options = {k: v for k, v in kwargs.items() if k not in names}
    return signature, constexprs, options


# ---- tools bundled with triton -----------------------------------------------------------------------------


def nvidia_tool(name: str) -> str | None:
    """cuobjdump / nvdisasm / ptxas as shipped in the triton wheel, else on PATH."""
    try:
        import triton

        bundled = Path(triton.__file__).parent / "backends" / "nvidia" / "bin" / name
        if bundled.is_file() and os.access(bundled, os.X_OK):
            return str(bundled)
    except ImportError:
        pass
    return shutil.which(name)


def _run_tool(argv: list[str], timeout: float = 60) -> tuple[int, str]:
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return 1, str(exc)
    return done.returncode, done.stdout + (done.stderr if done.returncode else "")


_ENCODING = re.compile(r"\s*/\*\s*0x[0-9a-f]{16}\s*\*/\s*$")


#: why SASS cannot be shown (an error's `reason`), in English for the `message`; present words each
NO_SASS = {
    "no-cubin": "this Triton produced no cubin",
    "no-tool": "no cuobjdump or nvdisasm found (Triton ships them in triton/backends/nvidia/bin/)",
    "tool-failed": "{tools} could not disassemble the cubin",
}


def disassemble(cubin: bytes) -> tuple[str | None, dict]:
    """SASS text of a cubin (encodings dropped), or (None, why): `why` is facts, `reason` "no-tool" (neither
    tool found) or "tool-failed" (`tools`: the ones found, which gave no SASS)."""
    tried = []
    with tempfile.TemporaryDirectory(prefix="tritonlab-sass-") as tmp:
        path = Path(tmp) / "kernel.cubin"
        path.write_bytes(cubin)
        tool = nvidia_tool("cuobjdump")
        if tool:
            tried.append("cuobjdump")
            code, out = _run_tool([tool, "-sass", str(path)])
            if code == 0 and out.strip():
                lines = []
                for line in out.splitlines():
                    if re.fullmatch(r"\s*/\*\s*0x[0-9a-f]{16}\s*\*/\s*", line):
                        continue
                    lines.append(_ENCODING.sub("", line).rstrip())
                return "\n".join(lines).strip("\n") + "\n", {}
        tool = nvidia_tool("nvdisasm")
        if tool:
            tried.append("nvdisasm")
            code, out = _run_tool([tool, "-c", str(path)])
            if code == 0 and out.strip():
                return out, {}
    return None, {"reason": "tool-failed", "tools": tried} if tried else {"reason": "no-tool"}


def resource_usage(cubin: bytes) -> dict:
    """REG / LOCAL / SHARED as cuobjdump -res-usage reports them from the cubin (no GPU needed)."""
    tool = nvidia_tool("cuobjdump")
    if not tool:
        return {}
    with tempfile.TemporaryDirectory(prefix="tritonlab-res-") as tmp:
        path = Path(tmp) / "kernel.cubin"
        path.write_bytes(cubin)
        code, out = _run_tool([tool, "-res-usage", str(path)])
    if code != 0:
        return {}
    usage: dict[str, int] = {}
    for key, value in re.findall(r"\b(REG|STACK|SHARED|LOCAL):(\d+)", out):
        usage.setdefault(key.lower(), int(value))
    return usage


# ---- the whole job -----------------------------------------------------------------------------------------


def _pick_inputs(exercise) -> tuple[dict, str]:
    """Small, representative sizes: the bench's interpreter size (aligned like real ones), else the demo's."""
    if exercise.bench and exercise.bench.interpreter:
        return dict(exercise.bench.interpreter[0]), exercise.bench.dtype
    if exercise.run:
        return dict(exercise.run.params), exercise.run.dtype
    return dict(exercise.verify.interpreter[-1]), exercise.verify.dtypes[0]


def compile_exercise(args: dict, device: str) -> dict:
    """Load the exercise, catch the wrapper's first launch, compile it and describe the requested stage.

    `device` is where the small inputs live ("cuda" on a GPU, "cpu" otherwise); nothing is launched.
    """
    import torch
    import triton

    from tritonlab.engine import exercise_env
    from tritonlab.engine.inputs import make_inputs
    from tritonlab.engine.learner import LearnerError, classify
    from tritonlab.engine.protocol import error

    stage = args.get("stage") or "ttir"
    result: dict = {
        "exercise": args.get("exercise"),
        "stage": stage,
        "arch": None,
        "text": "",
        "header": [],
        "kernel": None,
        "registers": None,
        "spills": None,
        "shared": None,
        "error": None,
        "triton": triton.__version__,
    }
    if stage not in STAGES:
        result["error"] = error(
            "usage",
            f"unknown stage {stage!r}: choose one of {', '.join(STAGES)}",
            code="unknown-stage",
            stage=str(stage),
            stages=list(STAGES),
        )
        return result
    local = local_target() if device == "cuda" else None
    try:
        capability = (
            parse_arch(args["arch"]) if args.get("arch") else (local.arch if local else parse_arch(None))
        )
    except ArchError as exc:
        result["error"] = error("usage", str(exc), **exc.facts)
        return result
    result["arch"] = f"sm_{capability}"
    target = local if local is not None and local.arch == capability else make_target(capability)

    try:
        loaded = exercise_env.load(args, "gpu" if device == "cuda" else "interpreter")
    except LearnerError as exc:
        result["error"] = exc.info
        return result
    exercise = loaded.exercise
    result.update(exercise=exercise.key, file=loaded.file, entry=exercise.entry)
    params, dtype = _pick_inputs(exercise)
    inputs = make_inputs(exercise, params, dtype, 0, torch.device(device))
    with capture_first_launch() as launches:
        try:
            loaded.wrapper(*inputs.values())
        except Captured:
            pass
        except Exception as exc:  # noqa: BLE001 - the learner's wrapper failed before any launch
            result["error"] = classify(exc, loaded.file)
            return result
    if not launches:
        result["error"] = error(
            "runtime",
            f"{exercise.entry}() launched no Triton kernel, so there is nothing to "
            "compile: launch your @triton.jit kernel with kernel[grid](...)",
            cause="no-launch",
            entry=exercise.entry,
        )
        return result
    launch = launches[0]
    result["kernel"] = getattr(launch.fn, "__name__", None) or getattr(
        getattr(launch.fn, "fn", None), "__name__", "?"
    )
    try:
        compiled = compile_launch(launch, target)
    except Exception as exc:  # noqa: BLE001 - the learner's kernel does not compile: classified, with its line
        result["error"] = classify(exc, loaded.file)
        if result["error"]["kind"] == "runtime":
            result["error"]["kind"] = "compile"
        if not result["error"].get("line"):
            result["error"]["line"] = compile_error_line(exc, loaded.file)
        return result
    describe(result, compiled, stage, launch, params, dtype, on_device=target is local and local is not None)
    return result


def compile_error_line(exc: BaseException | None, learner_file: str) -> int | None:
    """The learner's line for a Triton CompilationError: its node's line counts from the `def` of the function
    whose source it carries, so that source is found in the file (kernels and @triton.jit helpers alike)."""
    try:
        lines = Path(learner_file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    found = None
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        src, lineno = getattr(exc, "src", None), getattr(getattr(exc, "node", None), "lineno", None)
        if isinstance(src, str) and isinstance(lineno, int):
            start = _find_block(lines, [ln.strip() for ln in src.splitlines()[:4]])
            if start is not None:
                found = start + lineno
        exc = exc.__cause__ or exc.__context__
    return found


def _find_block(lines: list[str], head: list[str]) -> int | None:
    if not head or not head[0]:
        return None
    for index, line in enumerate(lines):
        if line.strip() == head[0] and [ln.strip() for ln in lines[index : index + len(head)]] == head:
            return index
    return None


def describe(
    result: dict, compiled, stage: str, launch: Launch, params: dict, dtype: str, on_device: bool
) -> None:
    metadata = compiled.metadata
    get = (lambda k, d=None: getattr(metadata, k, d)) if not isinstance(metadata, dict) else metadata.get
    asm = compiled.asm
    cubin = asm.get("cubin") if hasattr(asm, "get") else None
    result["shared"] = get("shared")
    result["num_warps"] = get("num_warps")
    result["num_stages"] = get("num_stages")
    result["kernel"] = get("name") or result["kernel"]
    usage = resource_usage(cubin) if cubin else {}
    if usage:
        result["registers"] = usage.get("reg")
        result["spills"] = usage.get("local", 0) // 4  # Triton's n_spills: local bytes / 4
        result["local_bytes"] = usage.get("local")
    if on_device:
        try:
            compiled._init_handles()
            result["registers"] = int(compiled.n_regs)
            result["spills"] = int(compiled.n_spills)
        except Exception:  # noqa: BLE001, S110 - too many resources for this GPU: the cubin's numbers stay
            pass
    if stage == "sass":
        text, why = disassemble(cubin) if cubin else (None, {"reason": "no-cubin"})
        if text is None:
            from tritonlab.engine.protocol import error

            said = NO_SASS[why["reason"]].format(tools=" and ".join(why.get("tools") or []))
            result["error"] = error("compile", f"cannot show SASS: {said}", cause="no-sass", **why)
            return
    else:
        text = asm.get(stage) if hasattr(asm, "get") else None
        if isinstance(text, bytes):
            text = text.decode("utf-8", "replace")
        if not text:
            from tritonlab.engine.protocol import error

            result["error"] = error(
                "compile",
                f"this Triton ({result['triton']}) does not keep the {stage} stage",
                cause="stage-missing",
                stage=stage,
                triton=result["triton"],
            )
            return
    if len(text) > TEXT_CAP:
        text = text[:TEXT_CAP] + f"\n… cut at {TEXT_CAP // 1_000_000} MB\n"
    result["text"] = text
    from tritonlab.engine.ir_notes import hopper_instructions

    result["hopper"] = hopper_instructions(text, stage)  # lesson 13: TMA, wgmma, mbarriers, in counts
    target_note = "this GPU" if on_device else "no GPU needed: compiled, not run"
    header = [
        f"{result['kernel']} · {stage} · {result['arch']} ({target_note}) · Triton {result['triton']}",
        "inputs: " + ", ".join(f"{k}={v}" for k, v in params.items()) + f" · {dtype}",
    ]
    signature = _signature_line(launch)
    if signature:
        header.append("signature: " + signature)
    if launch.config:
        header.append(
            f"autotune config: {launch.config} (the first of {launch.configs}; "
            "`tritonlab bench` times them all)"
        )
    res = [f"num_warps {result['num_warps']}", f"num_stages {result['num_stages']}"]
    if result["registers"] is not None:
        res.append(f"{result['registers']} registers/thread")
    if result["spills"] is not None:
        res.append(f"{result['spills']} spills")
    if result["shared"] is not None:
        res.append(f"{result['shared']:,} B shared memory")
    header.append(" · ".join(res))
    result["header"] = header  # English, for --json readers; tritonlab.present.ir words `header_facts`
    result["header_facts"] = {
        "kernel": result["kernel"],
        "stage": stage,
        "arch": result["arch"],
        "on_device": bool(on_device),
        "triton": result["triton"],
        "params": dict(params),
        "dtype": dtype,
        "signature": signature or None,
        "config": str(launch.config) if launch.config else None,
        "configs": launch.configs if launch.config else None,
    }


def _signature_line(launch: Launch) -> str:
    import inspect

    fn = getattr(launch.fn, "fn", None)
    try:
        names = list(inspect.signature(fn).parameters)  # type: ignore[arg-type]  # None raises TypeError: caught
    except (TypeError, ValueError):
        return ""
    values = dict(zip(names, launch.args, strict=False))
    values.update({k: v for k, v in launch.kwargs.items() if k in names})
    parts = []
    for name in names:
        if name not in values:
            continue
        value = values[name]
        if hasattr(value, "data_ptr") and hasattr(value, "dtype"):
            parts.append(f"{name}: *{_DTYPE_NAMES.get(str(value.dtype).replace('torch.', ''), value.dtype)}")
        else:
            parts.append(f"{name}={value!r}")
    return ", ".join(parts)


# ---- running in a fresh process ----------------------------------------------------------------------------


def compile_in_subprocess(args: dict, timeout: float = 100.0) -> dict:
    """compile_exercise in a new Python without TRITON_INTERPRET (see the module docstring)."""
    from tritonlab.engine.protocol import error

    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    root = str(Path(__file__).resolve().parent.parent.parent)
    env["PYTHONPATH"] = root + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    with tempfile.TemporaryDirectory(prefix="tritonlab-ir-") as tmp:
        request, answer = Path(tmp) / "in.json", Path(tmp) / "out.json"
        request.write_text(json.dumps(args), encoding="utf-8")
        try:
            done = subprocess.run(
                [sys.executable, "-m", "tritonlab.engine.kernel_ir", str(request), str(answer)],
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                check=False,
            )
        except subprocess.TimeoutExpired:
            # the compiler's own time (nothing of the kernel runs): `stopped` tells the UI which process
            return {
                "error": error(
                    "timeout",
                    f"compiling took more than {timeout:g} s",
                    timeout_s=timeout,
                    stopped="compiler",
                )
            }
        if answer.is_file():
            result = json.loads(answer.read_text(encoding="utf-8"))
            if done.stdout.strip():
                result["output"] = done.stdout[-4000:]
            return result
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        err = error(
            "crash",
            f"the compiler process failed (exit status {done.returncode})",
            stderr_tail=tail,
            cause="compiler",
            exit_code=done.returncode,
        )
        if done.returncode < 0:  # killed by a signal: its name, worded by the UI
            with contextlib.suppress(ValueError):
                err["signal"] = signal.Signals(-done.returncode).name
        return {"error": err}


def main(argv: list[str]) -> int:
    sys.dont_write_bytecode = True
    request, answer = argv
    args = json.loads(Path(request).read_text(encoding="utf-8"))
    try:
        result = compile_exercise(args, "cpu")
    except Exception as exc:  # noqa: BLE001 - reported, not raised: the parent reads one JSON file
        import traceback

        traceback.print_exc()
        result = {
            "error": {
                "kind": "runtime",
                "message": f"internal error in the lab: {exc!r}",
                "line": None,
                "internal": True,
            }
        }
    from tritonlab.engine.protocol import _clean

    Path(answer).write_text(json.dumps(_clean(result), default=str), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
