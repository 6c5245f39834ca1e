"""run: the exercise's demo — small inputs, the learner's output beside torch's, and which program wrote what.

Returns facts (the call, each input's description and values, launches, byte counts, the output, torch's
output, whether they match); `tritonlab.present.run` words them. `--json` keeps the old `lines` key (added by
the CLI)."""

from __future__ import annotations

from typing import Any

import torch

from tritonlab.engine import exercise_env, memcheck
from tritonlab.engine.inputs import describe, make_inputs
from tritonlab.engine.inputs import facts as tensor_facts
from tritonlab.engine.learner import LearnerError, classify
from tritonlab.engine.results import Kind


def _show(t: torch.Tensor, limit: int = 64) -> str:
    if not isinstance(t, torch.Tensor):
        return repr(t)
    flat = t.detach().cpu()
    if flat.dim() <= 1:
        values = flat.reshape(-1)[:limit].tolist()
        more = f" … (+{flat.numel() - limit})" if flat.numel() > limit else ""
        return "[" + ", ".join(_num(v) for v in values) + "]" + more
    rows = [
        ("  " + " ".join(f"{_num(v):>8}" for v in row[:12]) + (" …" if flat.shape[-1] > 12 else ""))
        for row in flat.reshape(-1, flat.shape[-1])[:8].tolist()
    ]
    return "\n".join(rows) + ("\n  …" if flat.reshape(-1, flat.shape[-1]).shape[0] > 8 else "")


def _num(v) -> str:
    if isinstance(v, float):
        return f"{v:.4g}"
    return str(v)


def program_map(t: torch.Tensor, width: int = 64) -> list[str]:
    """One character per element: the program id that wrote it (0-9, a-z, A-Z), '?' when unwritten."""
    digits = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    flat = t.detach().cpu().reshape(-1)
    poison = memcheck.is_poison(flat).reshape(-1) if flat.numel() else flat.bool()
    chars = []
    for value, unwritten in zip(flat.tolist(), poison.tolist(), strict=True):
        if unwritten:
            chars.append("?")
        else:
            v = int(value)
            chars.append(digits[v] if 0 <= v < len(digits) else "#")
    return ["".join(chars[i : i + width]) for i in range(0, len(chars), width)]


def handle(args: dict, ctx) -> dict:
    result: dict[str, Any] = {"exercise": args.get("exercise"), "backend": ctx.backend, "error": None}
    try:
        loaded = exercise_env.load(args, ctx.backend)
    except LearnerError as exc:
        result["error"] = exc.info
        return result
    exercise: Any = loaded.exercise
    spec = exercise.run
    params = spec.params if spec else exercise.verify.interpreter[0]
    dtype = spec.dtype if spec else exercise.verify.dtypes[0]
    kwargs = spec.kwargs if spec else {}
    device: Any = loaded.device
    allocator = memcheck.GuardedAllocator(device)
    inputs = make_inputs(exercise, params, dtype, 0, device, allocator=allocator)
    result["call"] = {
        "entry": exercise.entry,
        "args": list(inputs),
        "kwargs": {k: repr(v) for k, v in kwargs.items()},
    }
    result["inputs"] = [
        {
            "name": name,
            "describe": describe(value),
            **tensor_facts(value),
            "values": _show(value) if isinstance(value, torch.Tensor) else None,
        }
        for name, value in inputs.items()
    ]
    originals = {k: (v.clone() if isinstance(v, torch.Tensor) else v) for k, v in inputs.items()}
    call = exercise_env.LearnerCall(loaded, ctx.backend, allocator)
    try:
        got = call(*inputs.values(), **kwargs)
    except (Exception, SystemExit) as exc:
        result["error"] = classify(exc, loaded.file)
        if result["error"]["kind"] == Kind.CUDA_FAULT:
            result["restart_worker"] = True
        return result
    launches, checker = call.launches, call.checker
    result["launches"] = [{"kernel": launch.get("kernel"), "grid": launch.get("grid")} for launch in launches]
    if checker is not None:
        stats = checker.stats
        result["stats"] = {
            "programs": stats.programs,
            "bytes_loaded": stats.bytes_loaded,
            "bytes_stored": stats.bytes_stored,
        }
    if exercise.verify.output.startswith("inplace:"):
        got = inputs[exercise.verify.output.split(":", 1)[1]]
    result["returned"] = {"describe": describe(got), **tensor_facts(got)}
    if isinstance(got, torch.Tensor):
        if spec and spec.show == "program-map":
            result["program_map"] = program_map(got)
        else:
            result["returned"]["values"] = _show(got)
        try:
            expected = exercise_env.reference(exercise, originals, params, kwargs)
            result["expected"] = {"values": _show(expected)}
            result["matches"] = bool(
                got.shape == expected.shape
                and torch.allclose(
                    got.float().cpu(), expected.float().cpu(), equal_nan=False, atol=1e-2, rtol=1e-2
                )
            )
        except Exception as exc:
            result["comparison_error"] = f"{type(exc).__name__}: {exc}"
    return result
