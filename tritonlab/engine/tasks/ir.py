"""ir: the learner's kernel at one compiler stage (ttir, ttgir, llir, ptx, sass), with registers, spills,
shared.

On a GPU the kernel is compiled in the worker for the local GPU (or the --arch asked for). On the interpreter
the worker's Triton cannot compile (see engine/kernel_ir.py), so a fresh process compiles for --arch (default
sm_90).
"""

from __future__ import annotations

from tritonlab.engine import kernel_ir


def handle(args: dict, ctx) -> dict:
    stage = args.get("stage") or "ttir"
    arch = args.get("arch")
    request = dict(args, stage=stage)
    if ctx.backend == "gpu":
        ctx.progress(f"compiling to {stage}")
        result = kernel_ir.compile_exercise(request, "cuda")
    else:
        ctx.progress(f"compiling to {stage} for {arch or kernel_ir.DEFAULT_ARCH} (no GPU needed)")
        result = kernel_ir.compile_in_subprocess(request)
    result.setdefault("exercise", args.get("exercise"))
    result.setdefault("stage", stage)
    for key in ("arch", "kernel", "registers", "spills", "shared"):
        result.setdefault(key, None)
    result.setdefault("text", "")
    result.setdefault("header", [])
    result.setdefault("error", None)
    return result
