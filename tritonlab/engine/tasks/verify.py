"""verify: run the learner's wrapper on every case and compare with the torch reference.

Guards against false passes: outputs are poisoned (unwritten elements are named), inputs live inside
poisoned guard zones (out-of-bounds stores are caught on a GPU), the interpreter checks every load/store
before it happens, inputs are compared with copies afterwards, and a kernel from the learner's file must run.
"""

from __future__ import annotations

import itertools
import random
import time

import torch

from tritonlab.engine import exercise_env, features, memcheck, outputs
from tritonlab.engine.diagnose import diagnose
from tritonlab.engine.inputs import describe, make_inputs
from tritonlab.engine.learner import LearnerError, classify, same_file
from tritonlab.engine.protocol import error
from tritonlab.engine.results import Kind


def iter_cases(exercise, backend: str, only: list | None = None):
    if only:  # a replay of exact cases (e.g. the GPU case that faulted, on the interpreter)
        for case in only:
            yield case.get("params", {}), case.get("dtype", exercise.verify.dtypes[0]), case.get("seed", 0), \
                case.get("kwargs", {})
        return
    spec = exercise.verify
    params_list = spec.gpu if backend == "gpu" else spec.interpreter
    for params, dtype, seed, kwargs in itertools.product(params_list, spec.dtypes, spec.seeds, spec.variants):
        yield params, dtype, seed, kwargs
    ranges = (spec.hidden or {}).get(backend)
    if ranges:  # a case the learner cannot tune for: sizes and seed drawn fresh on every verify
        draw = random.SystemRandom()
        yield ({name: draw.randint(low, high) for name, (low, high) in ranges.items()}, spec.dtypes[0],
               draw.randrange(1 << 31), {})


def handle(args: dict, ctx) -> dict:
    backend = ctx.backend
    started = time.perf_counter()
    result = {"exercise": args.get("exercise"), "backend": backend, "passed": False, "cases": [], "error": None}
    try:
        loaded = exercise_env.load(args, backend)
    except LearnerError as exc:
        result["error"] = exc.info
        return result
    exercise = loaded.exercise
    result.update(exercise=exercise.key, file=loaded.file, entry=exercise.entry)
    lacking = features.missing(exercise.verify.requires, backend)
    if lacking:  # cannot run here: say what is missing instead of failing the learner (lesson 13's TMA exercise)
        result["skipped"] = {"kind": Kind.SKIPPED.value, "requires": list(exercise.verify.requires),
                             "missing": lacking, "triton": _triton_version()}
        result["summary"] = f"skipped on the {backend}: needs {', '.join(lacking)}"
        result["seconds"] = round(time.perf_counter() - started, 3)
        return result
    cases = list(iter_cases(exercise, backend, args.get("cases")))
    total = len(cases) + len(exercise.rejects)
    for index, (params, dtype, seed, kwargs) in enumerate(cases, 1):
        name = exercise_env.case_name(params, dtype, seed, kwargs)
        ctx.progress(f"case {index}/{total}: {name}", case=index, total=total, name=name)
        case = run_case(loaded, params, dtype, seed, kwargs, backend)
        case["name"] = name
        result["cases"].append(case)
        if case.get("error"):
            result["error"] = dict(case["error"], case=name)
            if case["error"]["kind"] == Kind.CUDA_FAULT:
                result["restart_worker"] = True
            break
    if not result["error"] and not args.get("cases"):
        for offset, reject in enumerate(exercise.rejects, len(cases) + 1):
            ctx.progress(f"case {offset}/{total}: rejects {reject.name}", case=offset, total=total,
                         name=reject.name, reject=True)
            result["cases"].append(run_reject(loaded, reject, backend))
    result["passed"] = bool(result["cases"]) and not result["error"] and all(c["passed"] for c in result["cases"])
    result["seconds"] = round(time.perf_counter() - started, 3)
    result["summary"] = summarize(result)
    return result


def run_case(loaded, params: dict, dtype: str, seed: int, kwargs: dict, backend: str) -> dict:
    exercise = loaded.exercise
    device = loaded.device
    atol, rtol = exercise_env.tolerance(exercise, dtype)
    case = {"params": params, "dtype": dtype, "seed": seed, "kwargs": kwargs, "passed": False,
            "max_abs_err": None, "max_rel_err": None, "mismatches": None, "diagnoses": [],
            "atol": atol, "rtol": rtol}
    allocator = memcheck.GuardedAllocator(device)
    inputs = make_inputs(exercise, params, dtype, seed, device, allocator=allocator)
    originals = {k: v.clone() for k, v in inputs.items() if isinstance(v, torch.Tensor)}
    plan = outputs.Plan.for_exercise(exercise, seed)  # None: one output tensor, the plain path
    if plan:
        expected = plan.reference(exercise, {k: originals.get(k, v) for k, v in inputs.items()}, params, kwargs)
    else:
        expected = exercise_env.reference(exercise, dict(originals, **{k: v for k, v in inputs.items()
                                                                        if not isinstance(v, torch.Tensor)}),
                                          params, kwargs)
    case["inputs"] = {k: describe(v) for k, v in inputs.items()}
    call = exercise_env.LearnerCall(plan_loaded := outputs.wrapped(loaded, plan), backend, allocator)
    began = time.perf_counter()
    try:
        with outputs.OpRecorder(exercise.verify.ops if plan else []) as recorder:
            got = call(*inputs.values(), **kwargs)
    except (Exception, SystemExit) as exc:  # the learner's code raised (or called sys.exit): classify, stop
        case["error"] = classify(exc, loaded.file)
        case["diagnoses"].append(dict(case["error"]))
        return case
    case["ms_wall"] = round((time.perf_counter() - began) * 1e3, 3)
    launches, checker = call.launches, call.checker
    case["launches"] = [_launch_summary(launch) for launch in launches]
    if checker is not None:
        case["stats"] = checker.stats.to_dict()
        case["stats"].pop("launches", None)

    diagnoses = case["diagnoses"]
    mine = [launch for launch in launches if same_file(launch.get("file"), loaded.file)]
    if exercise.expect_kernel and not mine:
        what = ("no Triton kernel ran" if not launches else
                "the kernels that ran are not defined in your file")
        diagnoses.append({"kind": "no-kernel-launched", "entry": exercise.entry, "foreign": bool(launches),
                          "message": f"{what}: {exercise.entry}() must launch the @triton.jit kernel you wrote "
                                     "(returning torch's own result does not count)"})

    for guard in allocator.check():
        diagnoses.append({"kind": "oob", "access": "store", "arg": guard.get("name"),
                          "message": f"out-of-bounds store: memory {guard.get('side')} the tensor "
                                     f"{guard.get('name') or ''} was overwritten ({guard.get('changed')} elements) "
                                     "— a store without a correct mask", **guard})

    output_spec = exercise.verify.output
    if output_spec.startswith("inplace:"):
        got = inputs[output_spec.split(":", 1)[1]]
        skip_input = output_spec.split(":", 1)[1]
    else:
        skip_input = None
    for name, original in originals.items():
        if name == skip_input:
            continue
        now = inputs[name]
        same = torch.equal(now, original) or (
            now.is_floating_point() and torch.equal(torch.isnan(now), torch.isnan(original))
            and torch.equal(torch.nan_to_num(now), torch.nan_to_num(original)))
        if not same:
            changed = int((now != original).sum()) if now.shape == original.shape else now.numel()
            diagnoses.append({"kind": "input-modified", "arg": name, "changed": changed,
                              "message": f"your kernel modified its input {name} ({changed} elements changed): "
                                         "inputs are read-only — store into the output instead"})

    if plan:
        outputs.finish_case(plan, plan_loaded, loaded, inputs, kwargs, got, expected, recorder, dtype, backend, case)
        case["passed"] = not diagnoses
        return case
    if not _check_output(got, expected, diagnoses):
        case["passed"] = False
        return case

    unwritten = memcheck.is_poison(got) if got.numel() else None
    block = kwargs.get("BLOCK_SIZE") or _launch_block(mine) or _block_size_guess(loaded)
    report = diagnose(got.detach(), expected.to(got.device), atol=atol, rtol=rtol, unwritten_mask=unwritten,
                      block_size=block)
    _refine_unwritten(report.get("diagnoses", []), mine, block, got.numel())
    for key in ("max_abs_err", "max_rel_err", "mismatches", "first", "map", "map_grid"):
        case[key] = report.get(key)
    diagnoses.extend(report.get("diagnoses", []))

    budget = exercise.verify.bytes_budget
    if budget and call.checked:
        size = exercise_env.element_size(dtype)
        limit = exercise_env.evaluate_bytes(budget, params, size)
        moved = checker.stats.bytes_loaded + checker.stats.bytes_stored
        case["bytes_budget"] = limit
        if moved > limit:
            diagnoses.append({"kind": "perf-bytes", "moved": moved, "budget": limit,
                              "message": f"correct, but the kernel moved {moved:,} bytes where {int(limit):,} are "
                                         "enough: it reads some data more than once"})
    case["passed"] = not diagnoses
    return case


def _check_output(got, expected, diagnoses: list) -> bool:
    if not isinstance(got, torch.Tensor):
        diagnoses.append({"kind": "wrong-shape", "got_type": type(got).__name__,
                          "message": f"the wrapper returned {type(got).__name__}, "
                                                          "not a torch.Tensor — return the output tensor"})
        return False
    ok = True
    if tuple(got.shape) != tuple(expected.shape):
        diagnoses.append({"kind": "wrong-shape", "got": list(got.shape), "expected": list(expected.shape),
                          "message": f"output shape {tuple(got.shape)}, expected {tuple(expected.shape)}"})
        ok = False
    if got.dtype != expected.dtype:
        diagnoses.append({"kind": "wrong-dtype", "got": str(got.dtype), "expected": str(expected.dtype),
                          "message": f"output dtype {str(got.dtype).replace('torch.', '')}, expected "
                                     f"{str(expected.dtype).replace('torch.', '')} — allocate it like the input "
                                     "(torch.empty_like) or pass dtype="})
        # same shape and both floating point: still compare the values, so the report says more than the dtype
        if not (got.shape == expected.shape and got.is_floating_point() and expected.is_floating_point()):
            ok = False
    if got.device.type != expected.device.type:
        diagnoses.append({"kind": "wrong-device", "got": str(got.device), "expected": str(expected.device),
                          "message": f"output is on {got.device}, inputs are on {expected.device}"})
        ok = False
    return ok


def run_reject(loaded, reject, backend: str) -> dict:
    exercise = loaded.exercise
    case = {"name": f"rejects {reject.name}", "kind": "reject", "passed": False, "max_abs_err": None,
            "max_rel_err": None, "mismatches": None, "diagnoses": [], "why": reject.why}
    try:
        inputs = make_inputs(exercise, reject.params, reject.dtype, 0, loaded.device, override=reject.override)
    except Exception as exc:  # a bad override in the lesson, not the learner's fault
        case["diagnoses"].append({"kind": "lesson", "exception": repr(exc), "message": f"cannot build this case: {exc!r}"})
        return case
    case["inputs"] = {k: describe(v) for k, v in inputs.items()}
    call = exercise_env.LearnerCall(loaded, backend)
    try:
        call(*inputs.values())
    except (Exception, SystemExit) as exc:
        if call.launches:
            info = classify(exc, loaded.file)
            case["diagnoses"].append({"kind": "validation", "cause": "failed-in-kernel", "error": info,
                                      "message": f"it failed inside the kernel instead of "
                                      f"being rejected before the launch ({info['message']})"})
        else:
            case["passed"] = True
            case["raised"] = f"{type(exc).__name__}: {exc}"
        return case
    why = reject.why.get("en") if isinstance(reject.why, dict) else reject.why
    case["diagnoses"].append({"kind": "validation", "cause": "accepted", "why": reject.why,
                              "case_name": reject.name,
                              "message": f"the wrapper accepted input it must reject ({why or reject.name}): "
                                         "check it and raise an exception before launching"})
    return case


def _triton_version() -> str:
    import triton

    return triton.__version__


def _launch_summary(launch: dict) -> dict:
    return {k: launch.get(k) for k in ("kernel", "file", "grid")}


def _launch_block(launches) -> int | None:
    for launch in launches:
        value = (launch.get("meta") or {}).get("BLOCK_SIZE")
        if isinstance(value, int):
            return value
    return None


def _refine_unwritten(diagnoses: list, launches: list, block, numel: int) -> None:
    """'The last programs were not launched' is only true when the grid really was too small."""
    if not block or len(launches) != 1 or not launches[0].get("grid"):
        return
    programs = 1
    for dim in launches[0]["grid"]:
        programs *= max(int(dim), 1)
    if programs * block < numel:
        return
    for diag in diagnoses:
        if diag.get("kind") == Kind.UNWRITTEN and diag.get("cause") in ("grid-floor", "grid-short"):
            diag.update(cause="partial-blocks", grid_programs=programs, block=block)
            head = diag["message"].split(":", 1)[0]
            diag["message"] = (f"{head}: the grid had enough programs ({programs} × BLOCK_SIZE {block} ≥ {numel}), "
                               "but each program wrote only part of its block — check the offsets: "
                               "pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)")


def _block_size_guess(loaded):
    for name in ("BLOCK_SIZE", "BLOCK"):
        value = getattr(loaded.module, name, None)
        if isinstance(value, int):
            return value
    return None


def summarize(result: dict) -> str:
    cases = result["cases"]
    passed = sum(c["passed"] for c in cases)
    if result.get("error"):
        err = result["error"]
        where = f" (line {err['line']})" if err.get("line") else ""
        return f"{err['kind']} error{where}: {err['message']}"
    if result["passed"]:
        return f"all {len(cases)} cases pass on the {result['backend']}"
    first = next(c for c in cases if not c["passed"])
    reason = first["diagnoses"][0]["message"] if first["diagnoses"] else "values differ"
    return f"{passed}/{len(cases)} cases pass — first failure, {first['name']}: {reason}"
