"""bench: time the learner's kernel against torch on a GPU, or count what it moves on the interpreter.

Verify runs first, in the same request: a kernel that gives wrong answers is not timed.

On a GPU every size of the exercise's [exercise.bench] is timed with triton.testing.do_bench (warm-up, L2
flush, CUDA events, median and 20th/80th percentiles), the torch baseline in the same run; GB/s and TFLOP/s
come from the lesson's bytes/flops formulas, % of peak from ceilings measured on this GPU
(engine/ceilings.py), and the roofline says which bound the kernel is under. Optional parts: a meta-parameter
sweep, the naive (wrong) timing of lesson 6, and the autotune explorer of lesson 10.

On the interpreter nothing is timed — its wall time is CPU emulation, one program after another, and says
nothing about a GPU. What it can count exactly is reported instead: bytes loaded and stored by the kernel's
masked-in lanes, programs run, and the arithmetic intensity that follows.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
from typing import Any

import torch

from tritonlab.engine import exercise_env, roofline, timing
from tritonlab.engine.inputs import evaluate, make_inputs
from tritonlab.engine.learner import LearnerError, classify
from tritonlab.engine.protocol import error
from tritonlab.engine.tasks import verify

LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg")

INTERPRETER_NOTE = (
    "No times on the interpreter: it emulates the kernel on the CPU, one program after another, so its "
    "wall time says nothing about a GPU. What it does count exactly is shown instead: the bytes your "
    "kernel's masked-in lanes loaded and stored, the programs it ran, and the arithmetic intensity (FLOPs "
    "per byte) that follows. Run bench on a machine with an NVIDIA GPU for times, GB/s and the roofline."
)

NAIVE_INTERPRETER_NOTE = (
    "On a GPU this would also time your kernel the wrong way: a host timer (time.perf_counter) around one "
    "call, with no warm-up and no torch.cuda.synchronize(). A kernel launch returns as soon as the work is "
    "queued, so such a timer measures the launch, not the kernel; and a first call also pays for compiling "
    "it. do_bench warms up, flushes the L2 cache, times each run with CUDA events on the GPU's own clock "
    "and reports the median of many."
)


class _Fault(Exception):
    """A CUDA fault: the context is gone, stop benchmarking and have the worker replaced."""

    def __init__(self, info: dict):
        super().__init__(info.get("message"))
        self.info = info


def blank(args: dict, ctx) -> dict[str, Any]:
    """A bench result with nothing measured yet (the shape every answer keeps, a refusal's too)."""
    return {
        "exercise": args.get("exercise"),
        "backend": ctx.backend,
        "device": (getattr(ctx, "info", None) or {}).get("device"),
        "verified": False,
        "verify": None,
        "dtype": None,
        "rows": [],
        "ceilings": None,
        "roofline": None,
        "sweep": None,
        "naive": None,
        "autotune": None,
        "note": None,
        "error": None,
    }


def handle(args: dict, ctx) -> dict:
    backend = ctx.backend
    result = blank(args, ctx)
    try:
        exercise = exercise_env.catalog(args.get("lessons_dir"), args.get("kernels_dir")).exercise(
            args["exercise"]
        )
    except KeyError as exc:
        result["error"] = error("usage", str(exc).strip("'\""), **exercise_env.unknown_ref_facts(exc))
        return result
    if exercise.bench is None:
        result["exercise"] = exercise.key
        result["error"] = exercise_env.no_bench(exercise.key, "bench")
        return result
    ctx.progress("verify first: a wrong kernel is not timed")
    checked = verify.handle(dict(args), ctx)
    result.update(
        exercise=checked.get("exercise") or result["exercise"],
        file=checked.get("file"),
        entry=checked.get("entry"),
    )
    result["verify"] = {
        "passed": bool(checked.get("passed")),
        "summary": checked.get("summary"),
        "cases": len(checked.get("cases") or []),
        "seconds": checked.get("seconds"),
    }
    if checked.get("restart_worker"):
        result["restart_worker"] = True
    if not checked.get("passed"):
        summary = checked.get("summary") or "verify did not pass"
        if checked.get("error"):
            result["error"] = dict(checked["error"], not_timed=True)
        else:
            failing: dict[str, Any] = next((c for c in checked.get("cases") or [] if not c.get("passed")), {})
            result["error"] = error(
                "verify",
                f"not timed: your kernel does not pass verify yet — {summary}",
                not_timed=True,
                case=failing.get("name"),
                diagnosis=(failing.get("diagnoses") or [None])[0],
            )
        return result
    result["verified"] = True
    try:
        loaded = exercise_env.load(args, backend)
    except LearnerError as exc:
        result["error"] = exc.info
        return result
    spec = loaded.exercise.bench
    assert spec is not None, f"{loaded.exercise.key} has no [exercise.bench] section"
    result["dtype"] = spec.dtype
    result["timed"] = spec.timed  # "backward": one backward pass of the wrapper's graph, and the baseline's
    result["compiled"] = bool(spec.compiled)  # rows carry compiled_ms: torch.compile of the baseline (GPU)
    result["baseline"] = spec.baseline or loaded.exercise.reference
    result["formulas"] = {"bytes": spec.bytes, "flops": spec.flops}
    skip = set(args.get("skip") or ())  # "sweep", "naive", "autotune": a quicker bench
    if skip:
        spec = dataclasses.replace(
            spec,
            sweep={} if "sweep" in skip else spec.sweep,
            naive=spec.naive and "naive" not in skip,
            autotune=[] if "autotune" in skip else spec.autotune,
        )
    try:
        if backend == "gpu":
            _bench_gpu(
                loaded,
                spec,
                ctx,
                result,
                refresh=bool(args.get("refresh_ceilings")),
                given=args.get("ceilings"),
            )
        else:
            _bench_interpreter(loaded, spec, ctx, result)
    except _Fault as fault:
        result["error"] = fault.info
        result["restart_worker"] = True
    return result


# ---- shared helpers ----------------------------------------------------------------------------------------


def size_label(params: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


def config_label(kwargs: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in kwargs.items())


def _row_base(params: dict, dtype: str, inputs: dict) -> dict:
    tensors = [v for v in inputs.values() if isinstance(v, torch.Tensor)]
    return {
        "params": dict(params),
        "label": size_label(params),
        "numel": tensors[0].numel() if tensors else None,
        "element_size": exercise_env.element_size(dtype),
        "dtype": dtype,
        "ms": None,
        "ms_q20": None,
        "ms_q80": None,
        "gbps": None,
        "tflops": None,
        "torch_ms": None,
        "torch_gbps": None,
        "torch_tflops": None,
        "speedup": None,
        "pct_of_peak": None,
    }


def _formula_bytes(spec, params: dict, inputs: dict, dtype: str) -> tuple[float | None, str]:
    size = exercise_env.element_size(dtype)
    if spec.bytes:
        return exercise_env.evaluate_bytes(spec.bytes, params, size), spec.bytes
    tensors = [v for v in inputs.values() if isinstance(v, torch.Tensor)]
    if not tensors:
        return None, ""
    largest = max(tensors, key=lambda t: t.numel())
    guess = sum(t.numel() * t.element_size() for t in tensors) + largest.numel() * largest.element_size()
    return float(guess), "inputs + one output of the largest input's size (no bytes formula declared)"


def _formula_flops(spec, params: dict, dtype: str) -> float | None:
    if not spec.flops:
        return None
    return float(evaluate(spec.flops, dict(params, element_size=exercise_env.element_size(dtype))))


def _stats_dict(stats) -> dict:
    if stats is None:
        return {}
    if hasattr(stats, "to_dict"):
        return stats.to_dict()
    if isinstance(stats, dict):
        return dict(stats)
    return {k: getattr(stats, k) for k in ("bytes_loaded", "bytes_stored", "programs") if hasattr(stats, k)}


def _sweep_configs(spec) -> list[dict]:
    keys = list(spec.sweep)
    return [
        dict(zip(keys, combo, strict=False)) for combo in itertools.product(*(spec.sweep[k] for k in keys))
    ]


def _baseline(exercise, spec, inputs: dict, params: dict, kwargs: dict | None = None):
    """The torch baseline as a cheap callable: the expression is compiled once, not parsed on every call."""
    import torch.nn.functional as F

    expression = spec.baseline or exercise.reference
    code = compile(expression, "<baseline>", "eval")
    names = {"torch": torch, "F": F, "math": math, "kw": kwargs or {}}
    names.update(params)
    # optional inputs: bench never passes them
    names.update({i.name: None for i in exercise.inputs if getattr(i, "optional", False)})
    names.update(inputs)
    return lambda: eval(code, names)  # shipped lesson content, like verify's reference


def compiled_baseline(exercise, spec, inputs: dict, params: dict):
    """torch.compile of the baseline expression, as a real function of the inputs (Dynamo cannot trace eval):
    `def baseline(x, y, ...): return <expression>` with the size params as constants."""
    import torch.nn.functional as F

    expression = spec.baseline or exercise.reference
    names = [name for name in inputs if name.isidentifier()]
    source = f"def baseline({', '.join(names)}):\n    return {expression}\n"
    scope: dict[str, Any] = {"torch": torch, "F": F, "math": math, "kw": {}}
    scope.update({k: v for k, v in params.items() if k not in inputs})
    exec(compile(source, "<baseline>", "exec"), scope)  # shipped lesson content, like verify's reference
    fn = torch.compile(scope["baseline"])
    values = [inputs[name] for name in names]
    return lambda: fn(*values)


def bench_inputs(exercise, spec, params: dict, device) -> dict:
    """The timed inputs: each tensor drawn from the bench's declared distribution (`bench.init`, randn with
    scale 1 when not named), never from verify's. Verify's data is chosen to break wrong kernels (softmax's
    integers in [-100, 100) overflow a naive exp), and such data can push torch onto a slow path, which
    flatters the learner."""
    declared = getattr(spec, "init", None) or {}
    override = {
        i.name: {"init": declared.get(i.name, ("randn", ())), "scale": 1.0, "layout": i.bench_layout}
        for i in exercise.inputs
        if not i.is_scalar
    }
    return make_inputs(exercise, params, spec.dtype, 0, device, override=override)


def backward_graph(forward, inputs: dict, grad_names, device):
    """For `timed = "backward"`: fresh leaves for the inputs named in `grad_names`, one forward through
    `forward(leaves)`, a fixed upstream gradient dy, and a callable that runs one backward pass of that graph
    (retain_graph, gradients reset first). Returns (backward, leaves needing gradients)."""
    leaves = {
        k: (v.detach().clone().requires_grad_(True) if k in grad_names and isinstance(v, torch.Tensor) else v)
        for k, v in inputs.items()
    }
    y = forward(leaves)
    if isinstance(y, (tuple, list)):
        y = y[0]
    if not isinstance(y, torch.Tensor) or not y.requires_grad:
        raise TypeError("the forward returned no tensor that autograd can differentiate")
    generator = torch.Generator(device=device).manual_seed(1)
    dy = torch.randn(y.shape, dtype=y.dtype, device=y.device, generator=generator)
    params = [leaves[k] for k in grad_names]

    def backward() -> None:
        for p in params:
            p.grad = None
        y.backward(dy, retain_graph=True)

    return backward, params


def _inplace_name(exercise) -> str | None:
    output = exercise.verify.output
    return output.split(":", 1)[1] if output.startswith("inplace:") else None


# ---- the interpreter: exact counts, no times ---------------------------------------------------------------


def _count(loaded, inputs: dict, kwargs: dict, target=None) -> dict:
    call = exercise_env.LearnerCall(loaded, "interpreter", target=target)
    call(*inputs.values(), **kwargs)
    checker, launches = call.checker, call.launches
    active, reason = call.checked, call.unchecked_reason
    stats = _stats_dict(checker.stats)
    if not active:
        return {"counted": False, "why": reason or "the interpreter could not be instrumented"}
    return {
        "counted": True,
        "bytes_loaded": int(stats.get("bytes_loaded", 0)),
        "bytes_stored": int(stats.get("bytes_stored", 0)),
        "programs": int(stats.get("programs", 0)),
        "launches": len(launches),
        "kernels": sorted({str(launch.get("kernel")) for launch in launches}),
    }


def _bench_interpreter(loaded, spec, ctx, result: dict) -> None:
    exercise = loaded.exercise
    result["note"] = INTERPRETER_NOTE
    for index, params in enumerate(spec.interpreter, 1):
        ctx.progress(f"counting bytes {index}/{len(spec.interpreter)}: {size_label(params)}")
        inputs = bench_inputs(exercise, spec, params, loaded.device)
        row = _row_base(params, spec.dtype, inputs)
        ideal, formula = _formula_bytes(spec, params, inputs, spec.dtype)
        flops = _formula_flops(spec, params, spec.dtype)
        row.update(bytes=ideal, bytes_formula=formula, flops=flops)
        try:
            if spec.timed == "backward":  # the forward runs uncounted; the backward's launches are counted
                backward, _ = backward_graph(
                    lambda leaves: loaded.wrapper(*leaves.values()),
                    inputs,
                    exercise.verify.grad_inputs,
                    loaded.device,
                )
                counts = _count(loaded, {}, {}, target=backward)
            else:
                counts = _count(loaded, inputs, {})
        except Exception as exc:  # noqa: BLE001 - the learner's code raised: reported on the row
            row["error"] = classify(exc, loaded.file)
            result["rows"].append(row)
            continue
        row.update(counts)
        if counts.get("counted"):
            moved = counts["bytes_loaded"] + counts["bytes_stored"]
            row["bytes_moved"] = moved
            row["arithmetic_intensity"] = flops / moved if flops is not None and moved else None
            row["extra_bytes"] = moved - ideal if ideal is not None else None
        row["ai_formula"] = flops / ideal if flops is not None and ideal else None
        result["rows"].append(row)
    last = result["rows"][-1] if result["rows"] else {}
    result["roofline"] = {
        "arithmetic_intensity": last.get("arithmetic_intensity", last.get("ai_formula")),
        "ai_formula": last.get("ai_formula"),
        "bandwidth_gbps": None,
        "peak_tflops": None,
        "ridge": None,
        "bound": None,
        "points": [],
        "note": "the ceilings (and so the ridge point and the bound) are measured on a GPU",
    }
    if spec.sweep:
        result["sweep"] = _sweep_interpreter(loaded, spec, ctx)
    if spec.naive:
        result["naive"] = {"rows": [], "note": NAIVE_INTERPRETER_NOTE}
    if spec.autotune:
        result["autotune"] = _autotune_listing(loaded, spec)


def _sweep_interpreter(loaded, spec, ctx) -> dict:
    """Programs and bytes per config: what BLOCK_SIZE changes is countable, how fast it runs is not.

    Launch options (num_warps, num_stages) change nothing on the interpreter: configs differing only in
    them share a row.
    """
    exercise = loaded.exercise
    params = spec.interpreter[-1]
    groups: dict = {}
    for kwargs in _sweep_configs(spec):
        key = tuple((k, v) for k, v in kwargs.items() if k not in LAUNCH_OPTIONS)
        groups.setdefault(key, []).append(kwargs)
    inputs = bench_inputs(exercise, spec, params, loaded.device)
    launch_keys = [k for k in spec.sweep if k in LAUNCH_OPTIONS]
    rows: list[dict[str, Any]] = []
    for index, (key, members) in enumerate(groups.items(), 1):
        kwargs = dict(key)
        label = config_label(kwargs) or "(defaults)"
        if launch_keys:
            label += " · any " + ", ".join(launch_keys)
        ctx.progress(f"sweep {index}/{len(groups)}: {label}")
        row = {
            "config": kwargs,
            "label": label,
            "configs": len(members),
            "ms": None,
            "gbps": None,
            "tflops": None,
            "best": False,
            "status": "ok",
            "error": None,
        }
        try:
            found = _count(loaded, inputs, members[0])
            row.update({k: found.get(k) for k in ("programs", "bytes_loaded", "bytes_stored")})
        except Exception as exc:  # noqa: BLE001 - the learner's code raised with this config
            row.update(status="error", error=classify(exc, loaded.file).get("message"))
        rows.append(row)
    note = "timings need a GPU: here each config's programs and bytes are counted"
    if launch_keys:
        verb = "change" if len(launch_keys) > 1 else "changes"
        note += f" ({' and '.join(launch_keys)} {verb} nothing on the interpreter)"
    return {
        "params": params,
        "label": size_label(params),
        "keys": list(spec.sweep),
        "rows": rows,
        "best": None,
        "note": note,
    }


def _find_autotuners(module) -> list:
    try:
        from triton.runtime.autotuner import Autotuner
    except ImportError:  # pragma: no cover
        return []
    return [value for value in vars(module).values() if isinstance(value, Autotuner)]


def _tuner_name(tuner) -> str:
    base = getattr(tuner, "base_fn", None) or getattr(tuner, "fn", None)
    return str(getattr(base, "__name__", None) or getattr(getattr(base, "fn", None), "__name__", "?"))


def _autotune_listing(loaded, spec) -> dict:
    from tritonlab.engine.kernel_ir import describe_config

    tuners = _find_autotuners(loaded.module)
    if not tuners:
        return {
            "kernel": None,
            "configs": [],
            "shapes": [],
            "note": "no kernel under @triton.autotune in this file: decorate the @triton.jit kernel with "
            "@triton.autotune(configs=[...], key=[...])",
        }
    tuner = tuners[0]
    return {
        "kernel": _tuner_name(tuner),
        "configs": [describe_config(c) for c in tuner.configs],
        "shapes": [size_label(s) for s in spec.autotune],
        "note": "timing each config needs a GPU; on the interpreter the autotuner has nothing to measure "
        "(a file may even declare a shorter config list for it)",
    }


# ---- the GPU: timings, ceilings, roofline ------------------------------------------------------------------


def _free_memory() -> None:
    if torch.cuda.is_available():
        torch.cuda.empty_cache()


def _synchronize(device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()


def _failure(exc: BaseException, loaded) -> dict:
    info = classify(exc, loaded.file)
    if info.get("kind") == "cuda-fault":
        raise _Fault(info)
    if isinstance(exc, torch.cuda.OutOfMemoryError):
        info = error("runtime", "out of GPU memory at this size", info.get("line"), cause="out-of-memory")
    return info


def _rates(row: dict, ideal: float | None, flops: float | None, limits: dict | None) -> None:
    ms = row.get("ms")
    row["bytes"] = ideal
    row["flops"] = flops
    if ms:
        row["gbps"] = ideal / ms / 1e6 if ideal else None
        row["tflops"] = flops / ms / 1e9 if flops else None
    torch_ms = row.get("torch_ms")
    if torch_ms:
        row["torch_gbps"] = ideal / torch_ms / 1e6 if ideal else None
        row["torch_tflops"] = flops / torch_ms / 1e9 if flops else None
        row["speedup"] = torch_ms / ms if ms else None
    row["arithmetic_intensity"] = (flops / ideal) if flops is not None and ideal else None
    row["host_bound"] = timing.host_bound(ms, row.get("gpu_ms"))
    if limits:
        row.update(roofline.place(row["arithmetic_intensity"], row.get("gbps"), row.get("tflops"), limits))


def set_ceilings(result: dict, ctx, refresh: bool = False, given: dict | None = None) -> None:
    """`result["ceilings"]`: the judge's (`given`, from its cache: engine/ceilings.for_bench), else measured
    here (a runner without a judge: its cache lives and dies with its private HOME)."""
    from tritonlab.engine import ceilings

    found = given if isinstance(given, dict) else ceilings.for_bench("gpu", refresh, ctx.progress)
    assert found is not None  # for_bench answers None only off the GPU
    if found.get("error"):  # % of peak is lost, the timings are not
        result["ceilings"] = None
        result["ceilings_error"] = str(found["error"])
    else:
        result["ceilings"] = found


def _bench_gpu(loaded, spec, ctx, result: dict, refresh: bool = False, given: dict | None = None) -> None:
    set_ceilings(result, ctx, refresh, given)
    limits = roofline.limits(result["ceilings"], spec.dtype)
    for index, params in enumerate(spec.sizes, 1):
        ctx.progress(f"timing {index}/{len(spec.sizes)}: {size_label(params)}")
        result["rows"].append(_time_size(loaded, spec, params, limits, naive=spec.naive))
        _free_memory()
    result["roofline"] = roofline.summary(result["rows"], limits)
    if spec.naive:
        result["naive"] = _naive_summary(result["rows"])
    if spec.sweep:
        result["sweep"] = _sweep_gpu(loaded, spec, ctx, limits)
        _free_memory()
    if spec.autotune:
        result["autotune"] = _autotune_gpu(loaded, spec, ctx)
        _free_memory()


def _time_size(loaded, spec, params: dict, limits: dict | None, naive: bool = False) -> dict:
    exercise = loaded.exercise
    try:
        inputs = bench_inputs(exercise, spec, params, loaded.device)
    except torch.cuda.OutOfMemoryError:
        row = {
            "params": dict(params),
            "label": size_label(params),
            "dtype": spec.dtype,
            "error": error(
                "runtime", "out of GPU memory for the inputs at this size", cause="out-of-memory", inputs=True
            ),
        }
        return row
    row = _row_base(params, spec.dtype, inputs)
    values = list(inputs.values())
    wrapper = loaded.wrapper
    backward = spec.timed == "backward"
    grads = exercise.verify.grad_inputs

    def call():
        return wrapper(*values)

    try:
        if backward:  # one forward, then its backward pass is what gets timed
            call, _ = backward_graph(lambda leaves: wrapper(*leaves.values()), inputs, grads, loaded.device)
        if naive:
            row["naive_ms"] = timing.naive(call)
            _synchronize(loaded.device)
        row.update(timing.measure(call))
    except Exception as exc:  # noqa: BLE001 - the learner's code raised at this size (a CUDA fault stops all)
        row["error"] = _failure(exc, loaded)
        return row
    # the same call without the host: a CUDA graph's replay (a backward pass too: autograd's launches are
    # captured on the capturing stream); None when the call cannot be captured
    row["gpu_ms"], row["gpu_ms_error"] = timing.gpu_time(call)
    if backward and row["gpu_ms"] is None:
        # the first backward graph a process builds would not capture on the H200 ("operation would make the
        # legacy stream depend on a capturing blocking stream"), whatever the capture mode; the next one did
        # (scripts/probe_capture_backward.py): one more try on a fresh forward
        with contextlib.suppress(Exception):
            again, _ = backward_graph(lambda leaves: wrapper(*leaves.values()), inputs, grads, loaded.device)
            again()
            row["gpu_ms"], row["gpu_ms_error"] = timing.gpu_time(again)
    try:
        if backward:
            baseline, _ = backward_graph(
                lambda leaves: _baseline(exercise, spec, leaves, params)(), inputs, grads, loaded.device
            )
        else:
            baseline = _baseline(exercise, spec, inputs, params)
        row.update({f"torch_{k}": v for k, v in timing.measure(baseline).items() if k != "rep_ms"})
        row["torch_gpu_ms"] = timing.gpu_only(baseline)
    except Exception as exc:  # noqa: BLE001 - the baseline is shipped content; report, keep the learner's numbers
        row["torch_error"] = f"{type(exc).__name__}: {exc}"
    if spec.compiled and not backward:
        _time_compiled(exercise, spec, inputs, params, row)
    ideal, _ = _formula_bytes(spec, params, inputs, spec.dtype)
    _rates(row, ideal, _formula_flops(spec, params, spec.dtype), limits)
    return row


def _time_compiled(exercise, spec, inputs: dict, params: dict, row: dict) -> None:
    """compiled_ms (and compiled_speedup = compiled_ms / ms, > 1: your kernel is faster): torch.compile's own
    kernels for the baseline, compiled once before timing (seconds, not timed)."""
    try:
        fn = compiled_baseline(exercise, spec, inputs, params)
        fn()  # compile here, outside the timing
        _synchronize(torch.device("cuda"))
        row["compiled_ms"] = timing.measure(fn)["ms"]
        if row.get("ms"):
            row["compiled_speedup"] = row["compiled_ms"] / row["ms"]
    except Exception as exc:  # noqa: BLE001 - no compiler here (no C compiler, an old GPU): say so, keep the rest
        row["compiled_error"] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"


def _naive_summary(rows: list[dict]) -> dict:
    out = []
    for row in rows:
        if row.get("naive_ms") is None or not row.get("ms"):
            continue
        out.append(
            {
                "label": row["label"],
                "naive_ms": row["naive_ms"],
                "ms": row["ms"],
                "ratio": row["naive_ms"] / row["ms"],
            }
        )
    slower = [r for r in out if r["ratio"] > 2]
    faster = [r for r in out if r["ratio"] < 0.8]
    parts = ["The naive number is a host timer around one call, with no warm-up and no synchronisation."]
    if faster:
        parts.append(
            f"At {faster[-1]['label']} it reads {faster[-1]['ratio']:.2g}× the real time: a launch returns "
            "once the work is queued, so the timer stopped while the GPU was still running the kernel."
        )
    if slower:
        parts.append(
            f"At {slower[0]['label']} it reads {slower[0]['ratio']:.3g}× the real time: a first call pays "
            "one-time costs (compiling or loading the kernel, allocating) that later calls do not."
        )
    parts.append(
        "do_bench warms up, flushes the L2 cache, times every run with CUDA events on the GPU's clock and "
        "reports the median of many runs."
    )
    return {"rows": out, "note": " ".join(parts)}


def _close_enough(got, expected, atol: float, rtol: float) -> bool:
    """A coarse check (10× the verify tolerance, ≤ 0.1% outliers) that a config computes the same thing: it
    catches a config that breaks the kernel, not rounding that a longer reduction brings."""
    if not isinstance(got, torch.Tensor) or tuple(got.shape) != tuple(expected.shape):
        return False
    a, b = got.detach().float(), expected.detach().float().to(got.device)
    bad = ~torch.isclose(a, b, rtol=10 * rtol, atol=10 * atol, equal_nan=True)
    return int(bad.sum()) <= max(0, a.numel() // 1000)


def _reference_for(loaded, spec, inputs: dict, params: dict, kwargs: dict):
    return exercise_env.reference(loaded.exercise, inputs, params, kwargs)


def _sweep_gpu(loaded, spec, ctx, limits: dict | None) -> dict:
    exercise = loaded.exercise
    params = spec.sizes[-1]
    configs = _sweep_configs(spec)
    inputs = bench_inputs(exercise, spec, params, loaded.device)
    values = list(inputs.values())
    ideal, _ = _formula_bytes(spec, params, inputs, spec.dtype)
    flops = _formula_flops(spec, params, spec.dtype)
    atol, rtol = exercise_env.tolerance(exercise, spec.dtype)
    inplace = _inplace_name(exercise)
    depends_on_kw = "kw" in exercise.reference
    expected = None if inplace or depends_on_kw else _reference_for(loaded, spec, inputs, params, {})
    rows: list[dict[str, Any]] = []
    for index, kwargs in enumerate(configs, 1):
        ctx.progress(f"sweep {index}/{len(configs)}: {config_label(kwargs)}")
        row = {
            "config": kwargs,
            "label": config_label(kwargs),
            "ms": None,
            "ms_q20": None,
            "ms_q80": None,
            "gbps": None,
            "tflops": None,
            "best": False,
            "status": "ok",
            "error": None,
        }
        rows.append(row)
        try:
            got = loaded.wrapper(*values, **kwargs)
            _synchronize(loaded.device)
            if not inplace:
                want = (
                    expected if expected is not None else _reference_for(loaded, spec, inputs, params, kwargs)
                )
                if not _close_enough(got, want, atol, rtol):
                    row.update(status="wrong", error="gives wrong results with this config: not timed")
                    continue
            del got
            row.update(timing.measure(lambda kw=kwargs: loaded.wrapper(*values, **kw)))
        except Exception as exc:  # noqa: BLE001 - the learner's code raised with this config
            info = _failure(exc, loaded)
            row.update(status="error", error=info.get("message"))
            continue
        _rates(row, ideal, flops, limits)
    timed = [r for r in rows if r["status"] == "ok" and r.get("ms")]
    best = min(timed, key=lambda r: r["ms"]) if timed else None
    if best:
        best["best"] = True
    return {
        "params": params,
        "label": size_label(params),
        "keys": list(spec.sweep),
        "rows": rows,
        "best": best["config"] if best else None,
        "best_gbps": best.get("gbps") if best else None,
        "best_ms": best["ms"] if best else None,
    }


def _autotune_gpu(loaded, spec, ctx) -> dict:
    from tritonlab.engine.kernel_ir import describe_config

    tuners = _find_autotuners(loaded.module)
    if not tuners:
        return _autotune_listing(loaded, spec)
    tuner = tuners[0]
    configs = list(tuner.configs)
    report: dict[str, Any] = {
        "kernel": _tuner_name(tuner),
        "configs": [describe_config(c) for c in configs],
        "shapes": [],
    }
    try:
        for number, params in enumerate(spec.autotune[:2], 1):
            report["shapes"].append(_time_configs(loaded, spec, tuner, configs, params, ctx, number))
            _free_memory()
    finally:
        tuner.configs = configs
        _clear_tuner(tuner)
    shapes = report["shapes"]
    first = shapes[0] if shapes else None
    if first and first.get("best") is not None:
        report["winner"] = first["rows"][first["best"]]["config"]
        report["winner_ms"] = first["rows"][first["best"]]["ms"]
    if len(shapes) > 1 and first and first.get("best") is not None and shapes[1].get("best") is not None:
        second = shapes[1]
        on_second = second["rows"][first["best"]]
        own = second["rows"][second["best"]]
        report["second"] = {
            "label": second["label"],
            "winner_ms": on_second.get("ms"),
            "own_best": own["config"],
            "own_best_ms": own["ms"],
            "gap": (on_second["ms"] / own["ms"]) if on_second.get("ms") and own.get("ms") else None,
            "winner_status": on_second.get("status"),
        }
    return report


def _clear_tuner(tuner) -> None:
    cache = getattr(tuner, "cache", None)
    if isinstance(cache, dict):
        cache.clear()


def _time_configs(loaded, spec, tuner, configs: list, params: dict, ctx, number: int) -> dict:
    from tritonlab.engine.kernel_ir import describe_config

    exercise = loaded.exercise
    inputs = bench_inputs(exercise, spec, params, loaded.device)
    values = list(inputs.values())
    ideal, _ = _formula_bytes(spec, params, inputs, spec.dtype)
    flops = _formula_flops(spec, params, spec.dtype)
    atol, rtol = exercise_env.tolerance(exercise, spec.dtype)
    expected = _reference_for(loaded, spec, inputs, params, {})
    rows: list[dict[str, Any]] = []
    for index, config in enumerate(configs, 1):
        label = describe_config(config)
        ctx.progress(f"autotune shape {number}, config {index}/{len(configs)}: {label}")
        row: dict[str, Any] = {
            "config": label,
            "ms": None,
            "ms_q20": None,
            "ms_q80": None,
            "gbps": None,
            "tflops": None,
            "status": "ok",
            "error": None,
            "best": False,
        }
        rows.append(row)
        tuner.configs = [config]
        _clear_tuner(tuner)
        try:
            got = loaded.wrapper(*values)
            _synchronize(loaded.device)
            if not _close_enough(got, expected, atol, rtol):
                row.update(status="wrong", error="gives wrong results with this config: not timed")
                continue
            del got
            row.update(timing.measure(lambda: loaded.wrapper(*values)))
        except Exception as exc:  # noqa: BLE001 - e.g. OutOfResources: this config does not fit the GPU
            info = _failure(exc, loaded)
            row.update(status="error", error=info.get("message"))
            continue
        row["tflops"] = flops / row["ms"] / 1e9 if flops else None
        row["gbps"] = ideal / row["ms"] / 1e6 if ideal else None
    timed = [i for i, r in enumerate(rows) if r["status"] == "ok" and r.get("ms")]
    best = min(timed, key=lambda i: rows[i]["ms"]) if timed else None
    if best is not None:
        rows[best]["best"] = True
    tuner.configs = configs
    _clear_tuner(tuner)
    pick = None
    try:
        loaded.wrapper(*values)
        _synchronize(loaded.device)
        chosen = getattr(tuner, "best_config", None)
        pick = describe_config(chosen) if chosen is not None else None
    except Exception as exc:  # noqa: BLE001
        pick = None
        _failure(exc, loaded)
    return {"params": params, "label": size_label(params), "rows": rows, "best": best, "autotuner_pick": pick}
