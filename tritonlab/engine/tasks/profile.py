"""profile: where one call of the learner's wrapper spends its time, kernel by kernel.

Runs in a runner after the judge's verify passed (like bench: a wrong kernel is not profiled), on the bench's
realistic data (the first `[exercise.bench]` size, or `size` from the request).

On a GPU: after a warm-up, `torch.profiler` (CUDA activity through CUPTI) records a few calls: every GPU
kernel's launches and time, each marked as the learner's (launched from their file) or not (a copy from
`.contiguous()`, a fill from `torch.zeros`, torch ops the wrapper calls), and the host time around them: the
wall time per call minus the time the GPU was busy. CUDA events around the same calls give the per-call total
that the profiler's sum is checked against. If the profiler records no kernel here (no CUPTI), the events'
total is still reported, with the reason.

On the interpreter nothing is timed (CPU emulation says nothing about a GPU): the launches one call makes are
listed instead (kernel, grid, programs), which already shows a wrapper that launches more than it should.
"""

from __future__ import annotations

import math
import time
from typing import Any

import torch

from tritonlab.engine import exercise_env
from tritonlab.engine.learner import LearnerError, classify, same_file
from tritonlab.engine.protocol import error
from tritonlab.engine.tasks.bench import backward_graph, bench_inputs, size_label

CALLS = 10  # profiled calls (after WARMUP): enough for a stable per-call mean of microsecond kernels
WARMUP = 3


def blank(args: dict, ctx) -> dict[str, Any]:
    """A profile result with nothing measured yet (the shape every answer keeps, a refusal's too)."""
    return {
        "exercise": args.get("exercise"),
        "backend": ctx.backend,
        "verified": False,
        "method": None,
        "params": None,
        "label": None,
        "dtype": None,
        "calls": 0,
        "kernels": [],
        "launches": [],
        "wall_us": None,
        "device_us": None,
        "events_us": None,
        "host_us": None,
        "profiler_error": None,  # why torch.profiler recorded no kernel (the events' total still stands)
        "error": None,
    }


def handle(args: dict, ctx) -> dict:
    backend = ctx.backend
    result = blank(args, ctx)
    judged = getattr(ctx, "judged", None) or {}
    result["verified"] = bool(judged.get("passed"))
    if not result["verified"]:
        failing: dict[str, Any] = next((c for c in judged.get("cases") or [] if not c.get("passed")), {})
        result["error"] = (
            dict(judged["error"], not_timed=True)
            if judged.get("error")
            else error(
                "verify",
                "not profiled: your kernel does not pass verify yet",
                not_timed=True,
                case=failing.get("name"),
                diagnosis=(failing.get("diagnoses") or [None])[0],
            )
        )
        return result
    try:
        loaded = exercise_env.load(args, backend)
    except LearnerError as exc:
        result["error"] = exc.info
        return result
    exercise = loaded.exercise
    spec = exercise.bench
    if spec is None:
        result["error"] = exercise_env.no_bench(exercise.key, "profile")
        return result
    sizes = spec.sizes if backend == "gpu" else spec.interpreter
    params = dict(args.get("size") or sizes[0])
    result.update(exercise=exercise.key, params=params, label=size_label(params), dtype=spec.dtype)
    try:
        inputs = bench_inputs(exercise, spec, params, loaded.device)
    except Exception as exc:  # noqa: BLE001 - a size the lesson does not support (a wrong --size): say so
        result["error"] = error(
            "usage",
            f"cannot make inputs for {size_label(params)}: {exc}",
            code="bad-size",
            size=size_label(params),
            exception=str(exc),
        )
        return result
    values = list(inputs.values())
    result["timed"] = spec.timed  # "backward": the profiled call is one backward pass, as bench times it

    def call():
        return loaded.wrapper(*values)

    try:
        ctx.progress(f"profiling {size_label(params)}")
        if spec.timed == "backward":
            call, _ = backward_graph(
                lambda leaves: loaded.wrapper(*leaves.values()),
                inputs,
                exercise.verify.grad_inputs,
                loaded.device,
            )
        if backend == "gpu":
            _profile_gpu(call, loaded, result)
        else:
            _launches_interpreter(loaded, call, result)
    except Exception as exc:  # noqa: BLE001 - the learner's code raised at this size
        result["error"] = classify(exc, loaded.file)
    return result


def _yours(loaded, call) -> set[str]:
    """Names of the kernels one call launches from the learner's file."""
    from tritonlab.engine import memcheck

    with memcheck.track_launches() as launches:
        call()
    return {str(launch.get("kernel")) for launch in launches if same_file(launch.get("file"), loaded.file)}


def _profile_gpu(call, loaded, result: dict) -> None:
    from torch.profiler import ProfilerActivity, profile

    yours = _yours(loaded, call)
    for _ in range(WARMUP):
        call()
    torch.cuda.synchronize()
    began = time.perf_counter()
    for _ in range(CALLS):
        call()
    torch.cuda.synchronize()
    result["wall_us"] = (time.perf_counter() - began) / CALLS * 1e6
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(CALLS):
        call()
    end.record()
    end.synchronize()
    result["events_us"] = start.elapsed_time(end) / CALLS * 1e3
    result["calls"] = CALLS
    kernels: list[dict] = []
    try:
        with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
            for _ in range(CALLS):
                call()
            torch.cuda.synchronize()
        for event in prof.key_averages():
            if getattr(event, "device_type", None) != torch.autograd.DeviceType.CUDA:
                continue
            total = float(getattr(event, "self_device_time_total", 0) or 0)
            if total <= 0:
                continue
            name = str(event.key)
            kernels.append(
                {
                    "name": name,
                    "yours": name in yours or any(name.startswith(k + "_") for k in yours),
                    "launches": int(event.count),
                    "per_call": event.count / CALLS,
                    "us_per_call": total / CALLS,
                }
            )
    except Exception as exc:  # noqa: BLE001 - no CUPTI, a profiler already running: the events' total stands
        result["profiler_error"] = (
            f"{type(exc).__name__}: {str(exc).splitlines()[0][:300] if str(exc) else ''}"
        )
    kernels.sort(key=lambda k: -k["us_per_call"])
    busy = sum(k["us_per_call"] for k in kernels)
    for kernel in kernels:
        kernel["share"] = kernel["us_per_call"] / busy if busy else None
    result["kernels"] = kernels
    if kernels:
        result["method"] = "torch.profiler"
        result["device_us"] = busy
        result["host_us"] = max(0.0, result["wall_us"] - busy)
    else:
        result["method"] = "cuda-events"


def _launches_interpreter(loaded, target, result: dict) -> None:
    call = exercise_env.LearnerCall(loaded, "interpreter", target=target)
    call()
    result["method"] = "interpreter"
    result["calls"] = 1
    for launch in call.launches:
        grid = launch.get("grid")
        programs = math.prod(int(g) for g in grid) if grid else None
        result["launches"].append(
            {
                "kernel": launch.get("kernel"),
                "yours": same_file(launch.get("file"), loaded.file),
                "grid": grid,
                "programs": programs,
            }
        )
