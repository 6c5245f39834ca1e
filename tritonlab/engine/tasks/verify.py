"""verify, the judge's half: make the inputs, run the learner's wrapper in a fresh runner, decide the verdict.

Runs in the judge (the worker process), which never imports the learner's file. Inputs come from the lesson's
fixed cases plus random sizes and values drawn from a secret per-verify seed; the reference is computed here;
the learner's wrapper runs in an untrusted runner (engine/runner.py, engine/tasks/verify_runner.py) that hands
back only its outputs (re-validated: plain tensors of the expected dtype, shape and device) and structured
facts (launches, guard zones, provenance). Nothing the runner prints or writes elsewhere reaches a verdict.

Guards against false passes: outputs are poisoned (unwritten elements are named), inputs live inside poisoned
guard zones, the interpreter checks every load/store before it happens, inputs are compared with the judge's
copies afterwards, a kernel from the learner's file must run, and the returned tensor must be memory that
kernel wrote (provenance: not-kernel-output, written-after-kernel, partly-written-by-torch).
"""

from __future__ import annotations

import ast
import contextlib
import itertools
import json
import math
import os
import random
import re
import secrets
import time
from pathlib import Path
from typing import Any, TypeGuard

import torch

from tritonlab.engine import (
    contracts,
    cuda_ipc,
    exercise_env,
    features,
    memcheck,
    outputs,
    refit,
    value_slips,
)
from tritonlab.engine.diagnose import diagnose
from tritonlab.engine.inputs import case_inputs, describe, digest, jittered, optional_passed, size_names
from tritonlab.engine.inputs import facts as input_facts
from tritonlab.engine.learner import name_of, same_file
from tritonlab.engine.protocol import error
from tritonlab.engine.results import Kind

RANDOM_CASES = 1  # per verify, drawn from its secret seed


def iter_cases(exercise, backend: str, only: list | None = None, seed: int | None = None):
    """(params, dtype, seed, kwargs) per case: the lesson's fixed cases, then random sizes from `seed`."""
    if only:  # a replay of exact cases (e.g. the GPU case that faulted, on the interpreter)
        for case in only:
            yield (
                case.get("params", {}),
                case.get("dtype", exercise.verify.dtypes[0]),
                case.get("seed", 0),
                case.get("kwargs", {}),
            )
        return
    spec = exercise.verify
    params_list = spec.gpu if backend == "gpu" else spec.interpreter
    variants = _variants(spec, backend)
    for params, dtype, case_seed, kwargs in itertools.product(params_list, spec.dtypes, spec.seeds, variants):
        yield params, dtype, case_seed, kwargs
    far = _far_rows_case(exercise, params_list, variants)
    if far is not None:
        yield far
    if seed is None or not params_list:
        return
    rng = random.Random(seed)
    ranges = (spec.hidden or {}).get(backend)
    if ranges:  # verify.hidden (the capstone): sizes from ranges the text does not show, same secret seed
        yield (
            {name: rng.randint(low, high) for name, (low, high) in ranges.items()},
            spec.dtypes[0],
            rng.randrange(1, 2**31),
            {},
        )
    names = size_names(exercise)
    # a size that is a power of two in every public case is constrained (a head dimension, a tile): keep it
    names -= {
        n
        for n in names
        if all(
            isinstance(p.get(n), int) and p[n] > 0 and not p[n] & (p[n] - 1) for p in params_list if n in p
        )
    }
    sized = [p for p in params_list if any(isinstance(p.get(n), int) and p.get(n) > 1 for n in names)]
    if not sized:
        return
    # The interpreter is slow on large cases: jitter one of the smaller half of the public sizes. One random
    # case per verify is enough to fail a kernel that special-cases the public ones (it cannot know which).
    sized.sort(key=lambda p: _volume(p, names))
    sized = sized[: max(1, (len(sized) + 1) // 2)]
    for _ in range(RANDOM_CASES):
        for _attempt in range(50):  # never a public size: special-casing those must not pass
            params = jittered(rng.choice(sized), rng, names)
            if params not in params_list and not _public_size(params, params_list, names):
                break
        yield params, rng.choice(spec.dtypes), rng.randrange(1, 2**31), {}


FAR_ROWS = 3  # rows of the far_rows case: row 2 starts at element 2 * 2**30 = 2**31


def _far_rows_case(exercise, params_list: list, variants: list) -> tuple | None:
    """The case a `far_rows = "logits"` contract adds: that input is 3 rows lying 2**30 elements apart (the
    far-rows layout, memcheck.GuardedAllocator.far_rows), so row 2 starts at element 2**31 and a row offset
    computed in int32 wraps there, as it does on real data past 2**31 elements (16k rows of a 128k
    vocabulary) — data too large to verify with. Its columns are those of the smallest public case with more
    than one; its dtype the verify dtype of the fewest bytes (float16: 4 GiB of address space, never
    touched but for the rows and their guards)."""
    name = (exercise.verify.contracts or {}).get("far_rows")
    spec = next((s for s in exercise.inputs if s.name == name and not s.is_scalar), None)
    if spec is None or len(spec.shape) != 2 or not str(spec.shape[0]).isidentifier():
        return None
    rows, cols = str(spec.shape[0]), spec.shape[1]
    from tritonlab.engine.inputs import DTYPES, evaluate

    wide = [p for p in params_list if int(evaluate(cols, p)) > 1]
    if not wide:
        return None
    names = size_names(exercise)
    smallest: dict = min(wide, key=lambda p: _volume(p, names))
    params = {**smallest, rows: FAR_ROWS}
    dtype = min(exercise.verify.dtypes, key=lambda d: DTYPES[d].itemsize)
    return params, dtype, exercise.verify.seeds[0], {**variants[0], "@far_rows": name}


def _far_rows_bytes(exercise, params: dict, dtype: str, seed, kwargs: dict) -> int:
    """The address space a far_rows case's input takes (its rows 2**30 elements apart), else 0."""
    name = (kwargs or {}).get("@far_rows")
    spec = next((s for s in exercise.inputs if s.name == name and not s.is_scalar), None)
    if spec is None or len(spec.shape) != 2:
        return 0
    from tritonlab.engine.inputs import case_dtype, evaluate

    rows, cols = (int(evaluate(d, params)) for d in spec.shape)
    itemsize = case_dtype(spec.dtype, dtype).itemsize
    return ((rows - 1) * memcheck.FAR_ROW_STRIDE + cols + (1 << 16)) * itemsize + (1 << 28)


def _triton_version() -> str:
    import triton

    return triton.__version__


def _volume(params: dict, names: set) -> int:
    volume = 1
    for key in names:
        value = params.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            volume *= max(value, 1)
    return volume


def _public_size(params: dict, params_list: list, names: set) -> bool:
    """Whether any size parameter takes a value some public case uses for it (n = 97 again, say)."""
    public = {(k, v) for p in params_list for k, v in p.items() if k in names}
    return any((k, v) in public for k, v in params.items() if k in names)


def resolve_file(exercise, args: dict) -> Path:
    if args.get("solution"):
        return Path(exercise.solution)
    if args.get("file"):
        return Path(args["file"])
    return Path(exercise.starter)


def handle(args: dict, ctx) -> dict:
    global _ipc_failed
    pool = getattr(ctx, "pool", None)
    # inside a runner (bench verifies first): the judge already decided, never re-decide here
    if pool is None:
        judged = getattr(ctx, "judged", None)
        if judged is None:
            raise RuntimeError("verify is decided by the judge, not in a runner")
        return judged
    backend = ctx.backend
    started = time.perf_counter()
    result: dict[str, Any] = {
        "exercise": args.get("exercise"),
        "backend": backend,
        "passed": False,
        "cases": [],
        "error": None,
    }
    try:
        exercise = exercise_env.catalog(args.get("lessons_dir"), args.get("kernels_dir")).exercise(
            args["exercise"]
        )
    except KeyError as exc:
        result["error"] = error("usage", str(exc).strip("'\""), **exercise_env.unknown_ref_facts(exc))
        return result
    path = resolve_file(exercise, args).resolve()
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        result["error"] = error("load", f"cannot read {path}: {exc}")
        return result
    result.update(exercise=exercise.key, file=str(path), entry=exercise.entry)
    lacking = features.missing(exercise.verify.requires, backend)
    # cannot run here: say what is missing instead of failing the learner (lesson 13's TMA exercise)
    if lacking:
        result["skipped"] = {
            "kind": Kind.SKIPPED.value,
            "requires": list(exercise.verify.requires),
            "missing": lacking,
            "triton": _triton_version(),
        }
        result["summary"] = f"skipped on the {backend}: needs {', '.join(lacking)}"
        result["seconds"] = round(time.perf_counter() - started, 3)
        return result
    device = torch.device("cuda") if backend == "gpu" else torch.device("cpu")
    secret = secrets.randbits(63)  # never leaves the judge before the runner is done
    cases = list(iter_cases(exercise, backend, args.get("cases"), None if args.get("cases") else secret))
    rejects = [] if args.get("cases") else list(exercise.rejects)
    total = len(cases) + len(rejects)

    clock = time.perf_counter()
    runner = pool.take()
    waited = time.perf_counter() - clock
    # A verify plan (several outputs, gradients, operators: engine/outputs.py) is split the same way: the
    # runner sends each output and gradient, the judge computes the reference gradients and compares them.
    plan = outputs.Plan.for_exercise(exercise)
    reorder = _reorder_case(cases) if plan and exercise.verify.deterministic and backend != "gpu" else None
    inputs_of: list[dict] = []
    job_cases = []
    for index, (params, dtype, seed, kwargs) in enumerate(cases):
        # The runner rebuilds the same values from (params, dtype, seed) on its own device and checks them
        # against this digest: no input crosses a file (inputs.case_inputs says why).
        inputs = case_inputs(exercise, params, dtype, seed, device, kwargs)
        inputs_of.append(inputs)
        file_out = runner.workdir / f"out-{index}.pt"
        job_cases.append(
            {
                "params": params,
                "dtype": dtype,
                "kwargs": kwargs,
                "digest": digest(inputs),
                "output": str(file_out),
                "seed": seed,
                "plan": plan is not None,
                # torch.compile takes seconds: once per verify, on the first case, on a GPU only
                "compile": bool(plan and exercise.verify.compile and backend == "gpu" and not index),
                # deterministic on the interpreter: this one case runs again with its programs reversed
                "reorder": index == reorder,
            }
        )
    runner_file = str(runner.workdir / path.name)
    job = {
        "op": "verify",
        "exercise": exercise.key,
        "lessons_dir": args.get("lessons_dir"),
        "kernels_dir": args.get("kernels_dir"),
        "file": runner_file,
        "source": source,
        "cases": job_cases,
        "rejects": [{"name": r.name} for r in rejects],
        # outputs through CUDA IPC instead of files (engine/cuda_ipc.py), unless it failed once in this worker
        "ipc": backend == "gpu" and cuda_ipc.available() and not _ipc_failed,
        # the far_rows case's 4 GiB of address space is the lab's, not the learner's: an interpreter runner's
        # address-space limit (judge.ADDRESS_SPACE) grows by it, so the learner's share stays what it was
        "address_space_extra": max((_far_rows_bytes(exercise, *case) for case in cases), default=0),
    }
    dry = None if args.get("cases") else _gpu_scale_case(exercise, backend)
    if dry is not None:  # the wrapper's launches at the GPU's largest size, recorded, not run
        job["dry"] = dry
    opener = cuda_ipc.Opener(device) if job["ipc"] else None
    names = [exercise_env.case_name(p, d, s, k) for p, d, s, k in cases]
    names = [
        n
        if i < len(cases) - _random_count(cases, exercise, backend, args)
        else n.split(" · seed")[0] + " · random"
        for i, n in enumerate(names)
    ]
    payloads: dict[int, dict] = {}
    loading = [0.0]  # seconds spent reading the runner's output files

    def on_message(message: dict) -> None:
        if (
            message.get("type") == "event"
            and isinstance(message.get("case"), int)
            and 0 <= message["case"] < len(cases)
        ):
            i = message["case"]
            ctx.progress(f"case {i + 1}/{total}: {names[i]}", case=i + 1, total=total, name=names[i])
        elif message.get("type") == "case" and isinstance(message.get("index"), int):
            began = time.perf_counter()
            payloads[message["index"]] = _load_output(
                job_cases[message["index"]]["output"], device, message, opener
            )
            loading[0] += time.perf_counter() - began

    prepared = time.perf_counter()
    try:
        outcome = pool.run(job, _timeout(args), on_message, runner=runner)
    finally:
        if opener is not None:
            opener.close()
    ran = time.perf_counter()
    failed = next((p["transport"] for p in payloads.values() if "transport" in p), None)
    if failed is not None and not args.get("_files"):
        # the lab's own transport failed, not the learner: files from now on, and this verify again with them
        _ipc_failed = str(failed)
        return handle(dict(args, _files=True), ctx)
    messages = [_map_paths(m, runner_file, str(path)) for m in outcome.messages]
    output = outcome.output_text().replace(runner_file, str(path))
    _emit_output(output)
    problem = _runner_problem(outcome, messages, output, str(path))
    if problem is not None:
        result["error"] = problem
    by_case = {m["index"]: m for m in messages if m.get("type") == "case" and isinstance(m.get("index"), int)}
    by_reject = {
        m["index"]: m for m in messages if m.get("type") == "reject" and isinstance(m.get("index"), int)
    }
    load_error = next((m for m in messages if m.get("type") == "load-error"), None)
    dry_facts = next((m for m in messages if m.get("type") == "dry"), None)
    stopped_by_dry = isinstance(dry_facts, dict) and bool(dry_facts.get("stopped"))  # GPU: before the cases
    if load_error is not None:
        result["error"] = _error_dict(load_error.get("error"))
    elif problem is None or problem.get("kind") != "tampered":
        for index, (params, dtype, seed, kwargs) in enumerate(cases):
            facts = by_case.get(index)
            if facts is None:
                break
            payload = payloads.get(index, {"missing": "no output file"})
            if plan is not None:
                case = judge_plan_case(
                    exercise,
                    str(path),
                    params,
                    dtype,
                    seed,
                    kwargs,
                    inputs_of[index],
                    facts,
                    payload,
                    backend,
                    first=not index,
                )
            else:
                case = judge_case(
                    exercise, str(path), params, dtype, seed, kwargs, inputs_of[index], facts, payload, device
                )
            case["name"] = names[index]
            result["cases"].append(case)
            if case.get("error"):
                result["error"] = dict(case["error"], case=names[index])
                if _raised_by_learner(result["error"], str(path)):  # their own check refused a valid case
                    _rejected_valid(result["error"], str(path))
                break  # a CUDA fault poisoned the runner's context only: the judge stays
        if not result["error"] and not stopped_by_dry:  # rejects the runner never ran were not accepted
            for index, reject in enumerate(rejects):
                facts = by_reject.get(index) or {}
                error_facts = facts.get("error") if isinstance(facts, dict) else None
                if isinstance(error_facts, dict) and error_facts.get("kind") == "tampered":
                    result["error"] = _error_dict(error_facts)  # the lab's code was rewritten: no verdict
                    break
                result["cases"].append(
                    judge_reject(
                        reject, by_reject.get(index), str(path), exercise.refuse_with, exercise.entry
                    )
                )
    if not result["error"] and len(result["cases"]) < total and not stopped_by_dry:
        result["error"] = error("crash", "the runner stopped before every case was run")
    if not result["error"]:
        if isinstance(dry_facts, dict) and isinstance(dry_facts.get("error"), dict):
            result["error"] = _error_dict(dry_facts["error"])  # the lab's code was rewritten: no verdict
        else:
            _loop_once(result["cases"], exercise, str(path), backend, dry, dry_facts)
    value_slips.carry(result["cases"])  # a 1-element case's fit, named where a larger case named it
    _size_threshold(result["cases"], size_names(exercise), exercise, str(path))
    _case_patterns(result["cases"], exercise.verify.dtypes, exercise.verify.contracts or {}, str(path))
    _pid_in_row_loop(result["cases"], str(path))
    _local_index_cause(result["cases"], str(path))
    _rescale_after_add_cause(result["cases"], str(path))
    _split_not_multiple(result["cases"], exercise, str(path))
    _exp2_cause(result["cases"], str(path))
    _descriptor_axis_cause(result["cases"], str(path))
    contracts.numerics_first(result["cases"], bool(result["error"]))
    result["passed"] = (
        bool(result["cases"]) and not result["error"] and all(c["passed"] for c in result["cases"])
    )
    result["seed"] = secret if not args.get("cases") else None
    # what the judge/runner split costs, per verify (scripts/judge_cost.py reports it)
    result["judge"] = {
        "runner_wait_s": round(waited, 4),
        "inputs_s": round(prepared - clock - waited, 4),
        "runner_s": round(ran - prepared, 4),
        "verdict_s": round(time.perf_counter() - ran, 4),
        "cases": len(cases),
        # inside runner_s (the runner's own clock, for finding where the time goes; never part of a verdict)
        "outputs_load_s": round(loading[0], 4),
        "transport": "cuda-ipc" if job["ipc"] else "files",
        **({"transport_failed": _ipc_failed} if _ipc_failed else {}),
        **_runner_clock(by_case.values()),
    }
    result["seconds"] = round(time.perf_counter() - started, 3)
    result["summary"] = summarize(result)
    return result


def _gpu_scale_case(exercise, backend: str) -> dict | None:
    """For a verify of an exercise with a `loop = [param, block]` contract: the GPU case with the largest
    `param` (the smallest such by input bytes), whose launches the runner records without running them
    (`run_dry`): after the cases on the interpreter (which cannot run that size), before them on a GPU (a
    block that covers the whole dimension may not finish compiling in the verify's time). None otherwise."""
    loop = (exercise.verify.contracts or {}).get("loop") or []
    if backend not in ("interpreter", "gpu") or len(loop) != 2:
        return None
    dtype = exercise.verify.dtypes[0]
    sized = [p for p in exercise.verify.gpu or [] if isinstance(p.get(loop[0]), int)]
    if not sized:
        return None
    top = max(p[loop[0]] for p in sized)
    params = min((p for p in sized if p[loop[0]] == top), key=lambda p: _input_bytes(exercise, p, dtype) or 0)
    return {"params": dict(params), "dtype": dtype}


def _describe_inputs(case: dict, inputs: dict) -> None:
    """A case's inputs as English text (`inputs`, what `--json` has always carried) and as facts the UI words
    in the learner's language (`input_facts`, present.tensors)."""
    case["inputs"] = {k: describe(v) for k, v in inputs.items()}
    case["input_facts"] = {k: input_facts(v) for k, v in inputs.items()}


def _case_blocks(exercise, mine: list) -> dict | None:
    """The tile sizes a case reports (`meta`): the first learner launch's, or under a `loop = [param, block]`
    contract the launch with the widest `block` — a small first kernel (a warm-up, a max pass) must not hide
    the main one from the loop-once check on a GPU."""
    metas = [launch["meta"] for launch in mine if launch.get("meta")]
    loop = (exercise.verify.contracts or {}).get("loop") or []
    if len(loop) == 2:
        wide = [(m, found[1]) for m in metas for found in [contracts.loop_block(m, str(loop[1]))] if found]
        if wide:
            return max(wide, key=lambda mv: mv[1])[0]
    return metas[0] if metas else None


def _loop_once(
    cases: list, exercise, learner_file: str, backend: str, dry: dict | None, dry_facts: dict | None
) -> None:
    """Contract `loop = [param, block]`: the lesson streams `param` through blocks of `block`. A wrapper that
    sizes the block to cover the whole of `param` (BLOCK_N = next_power_of_2(S)) loops once: right on every
    small case, and at the GPU's sizes one program would hold the whole row (S = 4099 keys: a 64 x 8192 score
    tile). Judged at the largest GPU size from the launch-only call (`dry`): on the interpreter because it
    cannot run that size, on a GPU because such a case may not finish compiling in the verify's time (a
    131,072-wide block); where it did run on a GPU, from that case's widest launch (`_case_blocks`) as well.
    A failing case of kind `gpu-scale` with diagnosis `loop-once`."""
    loop = (exercise.verify.contracts or {}).get("loop") or []
    if len(loop) != 2:
        return
    param, block = str(loop[0]), str(loop[1])
    found: tuple | None = None
    if dry is not None and isinstance(dry_facts, dict):  # launches recorded before a raise count too (a
        # wrapper that checks the output it never got, `isfinite(out).all()`, raises after its launch)
        widest = contracts.widest_loop_launch(dry_facts.get("launches") or [], block, learner_file, same_file)
        if widest is not None and contracts.loops_once(dry["params"].get(param), widest[0]):
            got, name, kernel = widest
            found = (dry["params"], dry["dtype"], dry["params"].get(param), got, kernel, name)
    if found is None and backend == "gpu":
        sized = [
            c for c in cases if c.get("kind") is None and isinstance((c.get("params") or {}).get(param), int)
        ]
        if sized:
            top = max(sized, key=lambda c: c["params"][param])
            named = contracts.loop_block(top.get("meta") or {}, block)
            if named is not None:
                found = (top["params"], top.get("dtype"), top["params"][param], named[1], None, named[0])
    if found is None:
        return
    params, dtype, value, got, kernel, block = found
    if not contracts.loops_once(value, got):
        return
    name = exercise_env.case_name(params, dtype, 0, {}).split(" · seed")[0]
    diag = {
        "kind": "loop-once",
        "param": param,
        "value": value,
        "block": block,
        "block_value": got,
        "kernel": kernel,
        "launched_only": not any(c.get("params") == params and c.get("kind") is None for c in cases),
        "message": f"at the GPU's size {param} = {value} your wrapper launches with {block} = {got}: one "
        f"block covers the whole of {param}, so the loop over it runs once and nothing streams — one program "
        f"would hold all {value} of them at once; keep {block} fixed (a tile that fits a program) and let"
        " the loop step through",
    }
    for case in cases:  # on a GPU the case itself ran and may have passed: it fails here
        if backend == "gpu" and case.get("params") == params and case.get("kind") is None:
            case["passed"] = False
            case.setdefault("diagnoses", []).insert(0, diag)
            return
    cases.append(
        {
            "name": name,
            "kind": "gpu-scale",
            "params": dict(params),
            "dtype": dtype,
            "passed": False,
            "max_abs_err": None,
            "max_rel_err": None,
            "mismatches": None,
            "diagnoses": [diag],
        }
    )


def _input_bytes(exercise, params: dict, dtype: str) -> int | None:
    """Bytes of the case's tensor inputs (what a kernel that reads everything loads at least once)."""
    from tritonlab.engine.inputs import evaluate

    total = 0
    try:
        for spec in exercise.inputs:
            if spec.is_scalar or getattr(spec, "optional", False):
                continue
            numel = 1
            for dim in spec.shape:
                numel *= int(evaluate(dim, params))
            size = exercise_env.element_size(dtype if spec.dtype == "case" else spec.dtype)
            total += numel * size
    except Exception:  # noqa: BLE001 - lesson data the loader accepted; never fail a verdict over it
        return None
    return total


def _size_threshold(cases: list, names: set, exercise=None, learner_file: str | None = None) -> None:
    """Every element wrong at a size above every size that passed (a row sum that covers only its first
    4096 columns): "check the operation" would point away from the bug. The diagnosis then says the kernel
    works up to a size (cause `size-threshold`: `param`, `passed_up_to`, `value`). Whether the kernel read all
    of its input is judged from the elements its loads reached (the runner's `stats.unread`), not from the
    bytes it loaded: overlapping chunks load as many bytes as the row holds and still miss its end."""
    plain = [c for c in cases if c.get("kind") is None and isinstance(c.get("params"), dict)]
    passed = [c for c in plain if c.get("passed")]
    failing = [c for c in plain if not c.get("passed")]
    if len(passed) < 2:
        return
    rows_of_zeroed = _zeroed_rows_size(exercise)
    for case in plain:
        diag = next(iter(case.get("diagnoses") or []), None)
        if (
            case.get("passed")
            or not isinstance(diag, dict)
            or diag.get("cause") not in ("all-wrong", "scaled")
            or diag.get("near_miss")  # nearly right everywhere: precision grows with the size, not the reach
            or diag.get("n_minus_one")  # off by sqrt((N - 1)/N): a divisor, at every size
        ):
            continue

        def seen(name: str, case: dict = case) -> list:  # passing values of `name` that are evidence
            return [
                c["params"].get(name) for c in passed if not _zero_row_hides(c, name, rows_of_zeroed, case)
            ]

        def separates(name: str, case: dict = case) -> bool:  # above every passing value; those vary
            value = case["params"].get(name)
            values = seen(name)
            ok = isinstance(value, int) and not isinstance(value, bool) and len(values) >= 2
            if not ok or not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
                return False
            # a threshold holds for every failing case: one that fails at or below the largest passing
            # value (3 rows of 1000 fail where 2 rows of 100 passed and 4 rows of 300 fail) says the fault
            # grows with something else, however far this case lies above the passes
            below = [f for f in failing if _int(f["params"].get(name), default=value + 1) <= max(values)]
            return value > max(values) and min(values) < max(values) and not below

        # another parameter that grows with the size (lesson 6's degree) separates the cases just as well:
        # the cause may be what each of its steps does, not how far the kernel reaches
        others = [n for n in sorted(case["params"]) if n not in names and separates(n)]
        sizes = [n for n in sorted(names) if separates(n)]
        if not sizes:
            continue
        name, value, upto = sizes[0], case["params"][sizes[0]], max(seen(sizes[0]))
        head = _head(diag)  # the count of wrong elements: a later refit (loop-steps) keeps it as its head
        if others:
            other = others[0]
            diag.update(
                cause="param-threshold",
                param=name,
                passed_up_to=upto,
                value=value,
                other=other,
                other_value=case["params"][other],
                other_up_to=max(seen(other)),
                message=f"{head}: every element is wrong at {name} = {value}, {other} = "
                f"{case['params'][other]}, while every case up to {name} = {upto}, {other} = "
                f"{max(seen(other))} passes — check what grows with them: the "
                f"loop over {other} (what each step computes) and the reach of the block over {name}",
            )
            continue
        # sizes that grew together in the cases (rows and columns both larger in every failing case) are
        # named together: the cases cannot tell which one the kernel stops short of
        also = [{"param": n, "value": case["params"][n], "passed_up_to": max(seen(n))} for n in sizes[1:]]
        at = ", ".join(f"{n} = {case['params'][n]}" for n in sizes)
        up = ", ".join(f"{n} = {max(seen(n))}" for n in sizes)
        whole = " and ".join(sizes)
        diag.update(cause="size-threshold", param=name, passed_up_to=upto, value=value)
        if also:
            diag["also"] = also
        needed = _input_bytes(exercise, case["params"], str(case.get("dtype"))) if exercise else None
        loaded = _int((case.get("stats") or {}).get("bytes_loaded"))
        unread = [u for u in (case.get("stats") or {}).get("unread") or [] if isinstance(u, dict)]
        if unread:  # some elements no load reached, however many bytes were loaded
            _size_unread(diag, unread[0], head, at, up, whole, learner_file)
            continue
        if needed and loaded >= needed:  # the kernel read all of it: the reach is fine, the sum is not
            diag.update(
                loaded_all=True,
                message=f"{head}: every element is wrong at {at}, while every case up to {up} passes, yet "
                f"the kernel read all of its input: it reaches the whole of {whole} but keeps only part of "
                "it — is the accumulator reset inside the loop?",
            )
            continue
        diag["message"] = (
            f"{head}: every element is wrong at {at}, while every case up to {up} passes — the kernel covers "
            f"sizes only up to a limit: does a loop (or the block) reach the whole of {whole}?"
        )


def _size_unread(diag: dict, unread: dict, head: str, at: str, up: str, whole: str, file: str | None) -> None:
    """The size-threshold diagnosis when the runner saw elements of an input that no load reached (`unread`:
    {input, unread, numel, first, last}), with the line when a chunk loop starts chunk c at c itself."""
    name, count, numel = unread.get("input"), unread.get("unread"), unread.get("numel")
    first, last = unread.get("first") or [], unread.get("last") or []
    diag.update(unread=dict(unread))
    span = f"{name}[{', '.join(map(str, first))}]"
    if last != first:
        span += f" to {name}[{', '.join(map(str, last))}]"
    said = (
        f"{head}: every element is wrong at {at}, while every case up to {up} passes, and the kernel "
        f"never loaded {count} of the {numel} elements of {name} ({span})"
    )
    chunk = _chunk_index_offset(file)
    if chunk is not None:
        diag.update(line=chunk["line"], chunk_offset=chunk)
        var, block = chunk["var"], chunk["block"]
        diag["message"] = (
            f"{said}: line {chunk['line']} starts chunk {var} at {var} itself ({chunk['code']}), so the "
            f"chunks overlap and stop short of the end — the loop (line {chunk['loop_line']}) counts chunks: "
            f"start chunk {var} at {var} * {block}"
        )
        return
    diag["message"] = (
        f"{said} — does a loop (or the block) reach the whole of {whole}, and do its steps overlap?"
    )


def _zeroed_rows_size(exercise) -> str | None:
    """The size naming the rows of the input whose row 0 a `zero_row` contract zeroes (x [M, N]: "M")."""
    name = ((getattr(getattr(exercise, "verify", None), "contracts", None) or {}).get("zero_row")) or None
    spec = next(
        (s for s in getattr(exercise, "inputs", None) or [] if s.name == name and not s.is_scalar), None
    )
    shape = list(getattr(spec, "shape", None) or [])
    return str(shape[0]) if len(shape) >= 2 and str(shape[0]).isidentifier() else None


def _zero_row_hides(case: dict, name: str, rows: str | None, failing: dict) -> bool:
    """A passing case is no evidence that the kernel works up to its `name` when the `zero_row` contract
    made its data degenerate there: every row zeroed (one row), the threshold is over the rows themselves, or
    it has fewer rows than the failing case — the zeroed row is a share of the rows that shrinks as they grow
    (1 of 3, then 1 of 10), and a slip in what row 0 (or the partial of the program that took it) contributes
    shows only where that share is small (a stage 2 that counts partial row 0 twice passes every case with
    one row per program: M = 3, or a hidden random case of M = 2 whose N lies below the failing case's)."""
    if rows is None:
        return False
    count, against = case["params"].get(rows), failing["params"].get(rows)
    if name == rows or (isinstance(count, int) and count <= 1):
        return True
    return isinstance(count, int) and isinstance(against, int) and count < against


def _runner_clock(facts) -> dict:
    """Seconds the runner reports for rebuilding the inputs, the learner's calls and writing the outputs."""
    keys = (
        ("inputs_ms", "runner_inputs_s"),
        ("place_ms", "runner_place_s"),
        ("ms_wall", "runner_calls_s"),
        ("check_ms", "runner_check_s"),
        ("save_ms", "runner_save_s"),
    )
    total = {name: 0.0 for _, name in keys}
    calls = []
    for index, case in enumerate(facts):
        for key, name in keys:
            value = case.get(key)
            if isinstance(value, (int, float)) and 0 <= value < 1e7:
                total[name] += value / 1e3
                if key == "ms_wall":
                    calls.append((round(value, 1), index))
    clock: dict = {k: round(v, 4) for k, v in total.items()}
    clock["slowest_calls_ms"] = [f"#{index}:{ms}" for ms, index in sorted(calls, reverse=True)[:4]]
    return clock


def _random_count(cases, exercise, backend, args) -> int:
    if args.get("cases"):
        return 0
    spec = exercise.verify
    params_list = spec.gpu if backend == "gpu" else spec.interpreter
    fixed = len(params_list) * len(spec.dtypes) * len(spec.seeds) * len(_variants(spec, backend))
    return len(cases) - fixed - sum(1 for case in cases if "@far_rows" in case[3])


def _variants(spec, backend: str) -> list[dict]:
    """The exercise's variants on this backend: "@autotune" ones pin the autotuner on the interpreter only (a
    GPU's autotuner tries every config itself)."""
    return [v for v in spec.variants if backend != "gpu" or "autotune" not in contracts.directives(v)[1]] or [
        {}
    ]


def _timeout(args: dict) -> float:
    """The runner's deadline: a little before the client's, so the judge answers "timeout" itself."""
    value = args.get("_timeout")
    if not isinstance(value, (int, float)) or value <= 0:
        return 60.0
    received = args.get("_received")
    # The judge's own set-up (inputs, references, files) already used part of the client's time: on a GPU with
    # large cases it is seconds, and a runner given the full budget then outlived the client's deadline, so
    # the
    # client killed the judge and the timeout lost the learner's line.
    spent = time.monotonic() - received if isinstance(received, (int, float)) else 0.0
    # The margin covers what follows the runner's deadline: its traceback (up to 1.5 s), killing and reaping
    # it (up to 2 s), all before the worker's own watchdog dumps its threads 1 s before the client's deadline.
    margin = min(5.0, max(3.0, 0.25 * float(value)))
    return max(1.0, float(value) - margin - spent)


def _emit_output(text: str) -> None:
    """The runner's (capped) output goes where the client reads learner output: this request's capture."""
    data = text.encode("utf-8", "replace")
    try:
        while data:
            data = data[os.write(1, data) :]
    except OSError:
        pass


def _map_paths(message: dict, runner_file: str, real: str) -> dict:
    text = json.dumps(message)
    if runner_file in text:
        text = text.replace(json.dumps(runner_file)[1:-1], json.dumps(real)[1:-1])
    return json.loads(text)


def _error_dict(info) -> dict:
    if not isinstance(info, dict) or not isinstance(info.get("kind"), str):
        return error("runtime", "the runner reported an error the lab cannot read")
    clean = {k: v for k, v in info.items() if isinstance(k, str)}
    clean["message"] = str(clean.get("message", ""))[:4000]
    line = clean.get("line")
    clean["line"] = line if isinstance(line, int) and not isinstance(line, bool) else None
    return clean


def _runner_problem(outcome, messages: list, output: str, learner_file: str) -> dict | None:
    """How the runner ended, when it did not end by finishing its job."""
    from tritonlab.engine.client import _learner_line, describe_exit

    line = _learner_line(output[-16384:], {"file": learner_file})
    if outcome.violations:
        return error(
            "tampered",
            "something other than the lab wrote to the lab's result channel "
            f"({len(outcome.violations)} foreign line(s)): the verdict cannot come from the learner's "
            "process",
            line,
            foreign=outcome.violations[:3],
        )
    if outcome.timed_out:
        return error(
            "timeout",
            "no answer within the time limit: the kernel may loop forever (check the loop "
            "bounds) or run far more programs than you meant. The runner was stopped.",
            line,
        )
    internal = next((m for m in messages if m.get("type") == "internal"), None)
    if (
        internal is not None
        and isinstance(internal.get("oom"), dict)
        and internal["oom"].get("kind") == "runtime"
    ):
        return dict(_error_dict(internal["oom"]), line=None)  # the GPU was full in the lab's own code
    if internal is not None:
        return error("runtime", "the runner failed: " + str(internal.get("message", ""))[-1500:], line)
    if outcome.done:
        return None
    status = outcome.exit_status
    what = describe_exit(status) if status is not None else "it vanished"
    extra = {}
    if isinstance(status, int) and status < 0:
        extra["signal"] = what.split(" ")[0]
    if outcome.zygote_died:
        what += "; its parent (the lab's runner pool) was killed too, and restarts on the next request"
    return error(
        "crash",
        f"the runner process died: {what}. Your code is kept; the next request starts a fresh runner.",
        line,
        cause="runner",  # the process running the learner's code; the worker (the judge) is up
        pool=bool(outcome.zygote_died),  # the runner pool's parent went too (it restarts on the next request)
        exit_code=status,
        stderr_tail="\n".join(output.strip().splitlines()[-20:]),
        **extra,
    )


_ipc_failed: str | None = None  # why CUDA IPC failed once in this worker (then files only)


def _load_output(path: str, device, message: dict | None = None, opener=None) -> dict:
    """The runner's output: tensors it shared through CUDA IPC (message["shared"], copied at once into the
    judge's memory) and the file, read without running any of its code (weights_only): a dict of plain
    tensors."""
    message = message or {}
    shared = message.get("shared")
    if shared is not None:
        if opener is None or not isinstance(shared, dict):
            return {"missing": "shared tensors the judge did not offer"}
        try:
            opened = opener.payload(shared)
        except cuda_ipc.IpcError as exc:
            return {"missing": "CUDA IPC", "transport": str(exc)[:300]}
        if "rest" in message:
            return cuda_ipc.merge(_empty_tree(message["rest"]), opened)
        base = _load_output(path, device)
        return base if "missing" in base else cuda_ipc.merge(base, opened)
    try:
        payload = torch.load(path, weights_only=True, map_location=device)
    except Exception as exc:  # noqa: BLE001 - a forged or subclassed tensor does not unpickle; say so
        return {"missing": f"{type(exc).__name__}: {str(exc).splitlines()[0][:200] if str(exc) else ''}"}
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)
    if not isinstance(payload, dict):
        return {"missing": "not a dict"}
    return payload


def _empty_tree(value, depth: int = 0) -> dict:
    """A runner's description of what is left once every tensor was shared: dicts of dicts, nothing else."""
    if not isinstance(value, dict) or depth > 3:
        return {}
    return {str(k): _empty_tree(v, depth + 1) for k, v in list(value.items())[:64] if isinstance(v, dict)}


def _plain(value) -> TypeGuard[torch.Tensor]:
    return type(value) is torch.Tensor


def _int(value, default: int = 0) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else default


def _ints(values) -> list[int]:
    return (
        [v for v in values if isinstance(v, int) and not isinstance(v, bool)][:8]
        if isinstance(values, list)
        else []
    )


def _interpreter_warnings(found) -> list[dict]:
    """The runner's record of warnings raised inside Triton's interpreter (numpy's overflow or division by
    zero), each with the learner's line that was running: {category, message, line}."""
    out = []
    for w in found if isinstance(found, list) else []:
        if isinstance(w, dict) and isinstance(w.get("message"), str):
            line = w.get("line")
            out.append(
                {
                    "category": str(w.get("category") or "Warning")[:40],
                    "message": w["message"][:200],
                    "line": line if isinstance(line, int) and not isinstance(line, bool) else None,
                }
            )
    return out[:8]


_INT_DIVISIONS = {"fmod": "%", "remainder": "%", "floor_divide": "//"}


def _zero_division(diagnoses: list, warned, learner_file: str | None, pinned: dict | None = None) -> None:
    """A failing case in which Triton's interpreter warned "divide by zero encountered in fmod / remainder /
    floor_divide" on a learner line: an integer % or // by zero ran there (a group size of 0 from
    M // BLOCK_M). The first value diagnosis without a line of its own gets the fact and that line. The
    operator is the line's own (`_zero_divisor`: the interpreter computes an integer // with an fmod too, so
    the warning's ufunc does not tell them apart); `pinned`, the config a pinned autotune case ran with,
    tells the file's config that set the divisor's factor to 0 from one the autotuner only timed."""
    found = None
    for w in warned or []:
        match = re.fullmatch(r"divide by zero encountered in (\w+)", str(w.get("message") or ""))
        if match and match.group(1) in _INT_DIVISIONS and w.get("line"):
            found = {"line": w["line"], "op": _INT_DIVISIONS[match.group(1)]}
            break
    if found is None:
        return
    diag = next(
        (d for d in diagnoses if d.get("kind") in (Kind.UNWRITTEN, Kind.MISMATCH, Kind.NAN)),
        None,
    )
    if diag is None:
        return
    found.update(_zero_divisor(learner_file, found["line"]) or {})
    _zero_config(found, learner_file, pinned)
    diag["zero_division"] = found
    if not diag.get("line"):
        diag["line"] = found.get("floor_line") or found["line"]
    diag["message"] = _zero_division_words(found) + "What followed: " + str(diag["message"])


def _zero_division_words(found: dict) -> str:
    """The sentence before what followed (English; present/diagnoses.py says it in every language): where the
    integer division by zero ran, and where its divisor came from."""
    name = found.get("divisor")
    if found.get("floor_line"):  # a tile count floored to 0: the advice is tl.cdiv
        origin = (
            f"; {name} comes from {found['floor']} (line {found['floor_line']}), a floor "
            "division that is 0 when the size is below the block: count tiles with tl.cdiv"
        )
    elif found.get("config_line"):  # a triton.Config of the file sets a factor of the divisor to 0
        param, at = found["zero_param"], found["config_line"]
        others = [n for n in found.get("config_lines") or [] if n != at]
        also = f" (and the one at line {', '.join(map(str, others))})" if others else ""
        made = (
            f"; {name} is computed at line {found['made_line']}, {found['made']}, and"
            if found.get("made_line")
            else ";"
        )
        origin = (
            f"{made} the autotune config at line {at}{also} sets {param} = 0 — make {param} nonzero there"
        )
    elif found.get("made_line"):  # no tile count behind it: say where the divisor was computed, no advice
        origin = (
            f"; {name} is computed at line {found['made_line']}, {found['made']} — check why it is 0 there"
        )
    else:
        origin = ""
    who = (
        f"in this case, while the autotuner timed the config at line {found['config_line']}, your kernel"
        if found.get("config_timed")
        else "in this case your kernel"
    )
    return (
        f"{who} divided an integer by zero at line {found['line']} (an integer {found['op']} whose divisor "
        f"is 0{origin}); on a GPU the result is undefined. "
    )


def _zero_config(found: dict, learner_file: str | None, pinned: dict | None) -> None:
    """When no block count explains the zero divisor: a `tl.constexpr` parameter that makes it 0 (the divisor
    itself, or a factor of a product or an argument of min() on the way to it, `num_pid_in_group = GROUP_M *
    num_pid_n`) and a `triton.Config({...})` literal of the file that sets that parameter to 0 — the config
    is the slip. Facts `zero_param`, `config` (its keywords), `config_line`, `config_lines` (every config
    setting it to 0), `config_timed` (the case ran another config, `pinned`, and the division came while the
    autotuner timed this one)."""
    if found.get("floor_line") or not found.get("zero_params"):
        found.pop("zero_params", None)
        return
    params = found.pop("zero_params")
    for param in params:
        held = contracts.configs_holding(learner_file, param, 0)
        if not held:
            continue
        lines = [line for line, _ in held]
        own = isinstance(pinned, dict) and pinned.get(param) == 0
        line, config = next(((n, c) for n, c in held if own and c == pinned), held[0])
        found.update(
            zero_param=param,
            config=config,
            config_line=line,
            config_lines=lines[:4],
            config_timed=isinstance(pinned, dict) and bool(pinned) and not own,
        )
        return


def _zero_division_passed(
    diagnoses: list, warned, learner_file: str | None, pinned: dict | None = None
) -> None:
    """A case with no value diagnosis (its output matched torch) in which Triton's interpreter warned "divide
    by zero encountered in fmod / remainder / floor_divide" on a learner line whose divisor is a scalar (one
    value for the whole program, and so is what it divides: `pid % group_size_m` with group_size_m = 0). numpy
    gives 0 there; a GPU's integer division by zero is undefined, so the program may compute any tile: the
    case fails with `zero-division`. A division of tensors (lanes of a tl.load, masked lanes loaded as 0) is
    left alone: a masked lane's quotient is never used."""
    for w in warned or []:
        match = re.fullmatch(r"divide by zero encountered in (\w+)", str(w.get("message") or ""))
        if not (match and match.group(1) in _INT_DIVISIONS and isinstance(w.get("line"), int)):
            continue
        if not _scalar_divisor(learner_file, w["line"]):
            continue
        found = {"line": w["line"], "op": _INT_DIVISIONS[match.group(1)]}
        found.update(_zero_divisor(learner_file, found["line"]) or {})
        _zero_config(found, learner_file, pinned)
        diagnoses.append(
            {
                "kind": Kind.ZERO_DIVISION.value,
                "line": found.get("floor_line") or found["line"],
                "zero_division": found,
                "message": _zero_division_words(found)
                + "The interpreter gives 0 there and this case matched torch, but a GPU gives no such "
                "promise: the program that divided may compute any tile — make the divisor nonzero for every "
                "program the grid launches",
            }
        )
        return


#: calls whose value is a tensor of lanes: a division by one of them divides lane by lane
_TENSOR_CALLS = frozenset(
    {"load", "arange", "zeros", "full", "where", "rand", "randn", "randint", "zeros_like"}
)


def _scalar_divisor(path: str | None, line: int) -> bool:
    """Whether every integer % or // at `line` of the learner's file divides a scalar by a scalar: neither
    operand, followed through its function's assignments, comes from a tensor call (tl.load, tl.arange,
    tl.zeros, …) or a broadcast index (`[:, None]`): a division of lanes (`offs % n`) may be masked off.
    False when no such division is found there (no claim)."""
    tree = _learner_tree(path)
    if tree is None:
        return False
    holder = None
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.lineno <= line <= (fn.end_lineno or fn.lineno):
            holder = fn if holder is None or fn.lineno > holder.lineno else holder
    if holder is None:
        return False
    divisions = [
        n
        for n in ast.walk(holder)
        if isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Mod, ast.FloorDiv)) and n.lineno == line
    ]
    if not divisions:
        return False
    assigned: dict[str, list[ast.AST]] = {}
    for node in ast.walk(holder):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        assigned.setdefault(n.id, []).append(node.value)
        if isinstance(node, ast.For):  # a loop variable over tl.range / range is a scalar; over a tensor, not
            for n in ast.walk(node.target):
                if isinstance(n, ast.Name):
                    assigned.setdefault(n.id, []).append(node.iter)
    todo: list[ast.AST] = [*(d.right for d in divisions), *(d.left for d in divisions)]
    seen: set[str] = set()
    while todo:
        node = todo.pop()
        for n in ast.walk(node):
            if isinstance(n, ast.Call) and name_of(n.func) in _TENSOR_CALLS:
                return False
            if isinstance(n, ast.Subscript) and "None" in ast.unparse(n.slice):
                return False
            if isinstance(n, ast.Name) and n.id not in seen:
                seen.add(n.id)
                todo.extend(assigned.get(n.id, []))
    return True


def _zero_divisor(path: str | None, line: int) -> dict | None:
    """For the integer % or // at `line`: its divisor's name and, following that name back through the
    assignments of the function (a few steps), the first one made by a floor division that counts blocks
    (`_floor_count`: `num_pid_m = M // BLOCK_M`): {"divisor", "floor", "floor_line"}; when no such one
    is found, the divisor's own assignment: {"divisor", "made", "made_line"} (a `//` that is not a count,
    `group_id = tile_id // num_pid_in_group`, is followed through, never blamed: probe round 16c)."""
    tree = _learner_tree(path)
    if tree is None:
        return None
    holder = None
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.lineno <= line <= (fn.end_lineno or fn.lineno):
            holder = fn if holder is None or fn.lineno > holder.lineno else holder
    if holder is None:
        return None
    assigned: dict[str, ast.Assign] = {}
    for node in ast.walk(holder):
        if isinstance(node, ast.Assign) and node.lineno <= line:
            for target in node.targets:
                if isinstance(target, ast.Name) and (
                    target.id not in assigned or node.lineno > assigned[target.id].lineno
                ):
                    assigned[target.id] = node
    division = next(
        (
            n
            for n in ast.walk(holder)
            if isinstance(n, ast.BinOp)
            and isinstance(n.op, (ast.Mod, ast.FloorDiv))
            and getattr(n, "lineno", 0) == line
            and isinstance(n.right, ast.Name)
        ),
        None,
    )
    if division is None or not isinstance(division.right, ast.Name):
        return None
    divisor = division.right.id
    constexprs = {
        a.arg
        for a in holder.args.args + holder.args.kwonlyargs
        if a.annotation is not None and ast.unparse(a.annotation).endswith("constexpr")
    }
    # the operator as the line writes it: Triton's interpreter computes an integer // with an fmod as well,
    # and that warning comes first (probe round 17b)
    op: dict[str, Any] = {"op": "//" if isinstance(division.op, ast.FloorDiv) else "%"}
    zero = _zero_factors(divisor, assigned, constexprs)
    if zero:
        op["zero_params"] = zero
    names, seen = [divisor], set()
    for _ in range(4):
        following = []
        for name in names:
            made = assigned.get(name)
            if made is None or name in seen:
                continue
            seen.add(name)
            if any(_floor_count(n, constexprs) for n in ast.walk(made.value)):
                return {**op, "divisor": divisor, "floor": ast.unparse(made)[:80], "floor_line": made.lineno}
            following += [n.id for n in ast.walk(made.value) if isinstance(n, ast.Name)]
        names = following
    own = assigned.get(divisor)
    if own is None:
        return {**op, "divisor": divisor}
    return {**op, "divisor": divisor, "made": ast.unparse(own)[:80], "made_line": own.lineno}


def _zero_factors(divisor: str, assigned: dict, constexprs: set) -> list[str]:
    """The `tl.constexpr` parameters that make `divisor` 0 when they are 0: the divisor itself, or, through
    the function's assignments (a few steps), a factor of a product or an argument of min() that it is made
    of (`num_pid_in_group = GROUP_M * num_pid_n`). A sum or a call such as tl.cdiv does not carry a 0."""

    def zero_parts(node: ast.AST) -> list[ast.AST]:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            return zero_parts(node.left) + zero_parts(node.right)
        if isinstance(node, ast.Call) and name_of(node.func) == "min":
            return [p for a in node.args for p in zero_parts(a)]
        return [node]

    found: list[str] = []
    names, seen = [divisor], set()
    for _ in range(4):
        following = []
        for name in names:
            if name in seen:
                continue
            seen.add(name)
            if name in constexprs:
                found.append(name)
                continue
            made = assigned.get(name)
            if made is None:
                continue
            following += [p.id for p in zero_parts(made.value) if isinstance(p, ast.Name)]
        names = following
    return found


def _floor_count(node: ast.AST, constexprs: set) -> bool:
    """`size // block`: a floor division whose right operand is a block size — a `tl.constexpr` parameter of
    the function, a name with BLOCK in it, or an integer literal above 1 (`M // BLOCK_M`, `N // 64`). A
    count of blocks that is 0 when the size is below the block; a `//` by a computed value (`tile_id //
    num_pid_in_group`, a group index) is not one."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv)):
        return False
    right = node.right
    if isinstance(right, ast.Name):
        return right.id in constexprs or "BLOCK" in right.id.upper()
    if isinstance(right, ast.Attribute):  # META.BLOCK_M, self.BLOCK
        return "BLOCK" in right.attr.upper()
    return isinstance(right, ast.Constant) and type(right.value) is int and right.value > 1


def _input_bounds(err: dict, inputs) -> None:
    """An out-of-bounds access whose mask bounds each index by the tensor's sizes in another order
    (memcheck's `permuted_bounds`): when the runner found that tensor to be an input of the case (its
    `input`), its shape is the lab's, so the sizes the launch passed are wrong — not the allocation the
    report suspects; the message says so."""
    detail = err.get("detail")
    if err.get("kind") != Kind.OOB or not isinstance(detail, dict):
        return
    permuted, mask = detail.get("permuted_bounds"), detail.get("mask")
    if not isinstance(permuted, dict) or not permuted.get("terms") or not mask:
        return
    name, shape = permuted.get("input"), detail.get("shape")
    given = dict(inputs).get(name) if isinstance(name, str) else None
    if not isinstance(given, torch.Tensor) or list(given.shape) != shape:
        permuted.pop("input", None)
        return
    permuted["shape"] = list(shape)
    hint = memcheck.report.permuted_bounds_hint(str(mask), str(detail.get("arg") or "?"), permuted)
    head = str(err.get("message") or "").split(" — ", 1)[0]
    err["message"] = detail["message"] = f"{head} — {hint}"


def _guard_diagnoses(facts: dict, diagnoses: list) -> None:
    """Guard zones the runner found overwritten: out-of-bounds stores."""
    for guard in facts.get("guards") or []:
        if not isinstance(guard, dict):
            continue
        guard = {
            "name": str(guard.get("name") or ""),
            "side": str(guard.get("side") or ""),
            "changed": _int(guard.get("changed")),
            "first_offsets": _ints(guard.get("first_offsets")),
        }
        diagnoses.append(
            {
                "kind": "oob",
                "access": "store",
                "arg": guard.get("name"),
                "message": f"out-of-bounds store: memory {guard.get('side')} the tensor "
                f"{guard.get('name') or ''} was overwritten ({guard.get('changed')} elements) "
                "— a store without a correct mask",
                **guard,
            }
        )


def _input_diagnoses(exercise, inputs: dict, payload: dict, diagnoses: list) -> None:
    """Inputs the runner sent back (it found them changed), compared here with the judge's own copies."""
    output_spec = exercise.verify.output
    skip_input = output_spec.split(":", 1)[1] if output_spec.startswith("inplace:") else None
    returned: dict[str, Any] = payload["inputs"] if isinstance(payload.get("inputs"), dict) else {}
    for name, original in inputs.items():
        if name == skip_input or not isinstance(original, torch.Tensor):
            continue
        if name not in returned:
            continue  # the runner found it unchanged
        now: Any = returned.get(name)
        if not _plain(now) or now.shape != original.shape or now.dtype != original.dtype:
            diagnoses.append(
                {
                    "kind": "input-modified",
                    "arg": name,
                    "message": f"your input {name} did not come back from the runner unchanged",
                }
            )
            continue
        now = now.to(original.device)
        same = torch.equal(now, original) or (
            now.is_floating_point()
            and torch.equal(torch.isnan(now), torch.isnan(original))
            and torch.equal(torch.nan_to_num(now), torch.nan_to_num(original))
        )
        if not same:
            changed = int((now != original).sum())
            diagnoses.append(
                {
                    "kind": "input-modified",
                    "arg": name,
                    "changed": changed,
                    "message": f"your kernel modified its input {name} ({changed} element"
                    f"{'' if changed == 1 else 's'} changed): inputs are read-only — store into the output "
                    "instead",
                }
            )


def _param_stem(param: str) -> str:
    """A kernel parameter's tensor name: output_ptr -> output, y_ptrs -> y, a_desc -> a."""
    return re.sub(r"_?(?:ptrs?|desc|pointer)$", "", param.lower())


def _names_same_tensor(param: str, text: str | None) -> bool:
    """Whether the kernel parameter `param` is named for the tensor a launch passes as `text` (a plain name):
    output_ptr for output, out_ptr for output, o_ptr for o, y_ptr for y."""
    stem = _param_stem(param)
    if not stem or not text or not re.fullmatch(r"[A-Za-z_]\w*", text):
        return False
    name = text.lower()
    return stem == name or name.startswith(stem) or stem.startswith(name)


def _launch_order(diagnoses: list, bindings, learner_file: str | None) -> None:
    """An input the kernel wrote because the launch passed the tensors in the wrong order: the runner saw the
    changed input handed to kernel parameter P and the returned output to another parameter Q of the same
    launch, and the names say they are swapped — P is named for the output the launch passes as Q, and Q for
    the input (`add_kernel[grid](x, output, y, ...)` for `(x_ptr, y_ptr, output_ptr, ...)`). The
    input-modified diagnosis then gets cause `launch-order` with the launch's line (the kernel's own store is
    right; "store into the output instead" was not). A kernel that stores through the input's own parameter
    is left alone."""
    from tritonlab.engine.memcheck.report import _launch_argument

    if not isinstance(bindings, dict) or not isinstance(bindings.get("inputs"), dict):
        return
    outs = [o for o in bindings.get("output") or [] if isinstance(o, dict)]
    for diag in diagnoses:
        if diag.get("kind") != "input-modified" or "changed" not in diag or diag.get("cause"):
            continue
        name = str(diag.get("arg"))
        for given in bindings["inputs"].get(name) or []:
            if not isinstance(given, dict) or not isinstance(given.get("line"), int):
                continue
            param, kernel, line = str(given.get("arg")), str(given.get("kernel")), given["line"]
            out = next(
                (o for o in outs if o.get("launch") == given.get("launch") and o.get("arg") != param), None
            )
            if out is None:
                continue
            other = str(out.get("arg"))
            as_param = _launch_argument(learner_file, line, kernel, param)
            as_other = _launch_argument(learner_file, line, kernel, other)
            if as_param is None or as_other is None:
                continue
            text, out_text = as_param[1], as_other[1]
            if not _names_same_tensor(param, out_text) or not (
                _names_same_tensor(other, text) or _names_same_tensor(other, name)
            ):
                continue
            at = _launch_call_line(learner_file, line, kernel) or line
            diag.update(
                cause="launch-order",
                line=at,
                kernel=kernel,
                param=param,
                input_text=text,
                output_param=other,
                output_text=out_text,
                message=f"the launch at line {at} passes {text} as {param} and {out_text} as {other}: your "
                f"kernel stored its result into {name} (through {param}) and read the output as {other} — "
                f"pass the tensors in the order of {kernel}'s parameters: {out_text} as {param}, {text} as "
                f"{other}",
            )
            break


def _launch_call_line(file: str | None, line: int, kernel: str) -> int | None:
    """The first line of the `kernel[grid](...)` call of the learner's file that spans `line`."""
    tree = contracts.file_tree(file)
    for node in ast.walk(tree) if tree is not None else ():
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Subscript)
            and name_of(node.func.value) == kernel
            and node.lineno <= line <= (node.end_lineno or node.lineno)
        ):
            return node.lineno
    return None


def _output_passed_as(diagnoses: list) -> None:
    """The output no element of which was written, beside an input-modified of cause `launch-order`: the
    output went to the kernel as another parameter (fact `launch_order`: {line, output_param}), so "check the
    tl.store pointer" would send the learner to a store that is right."""
    swapped = next(
        (d for d in diagnoses if d.get("kind") == "input-modified" and d.get("cause") == "launch-order"), None
    )
    if swapped is None:
        return
    for diag in diagnoses:
        if diag.get("kind") == "unwritten" and diag.get("cause") == "none-written":
            diag["launch_order"] = {"line": swapped["line"], "output_param": swapped["output_param"]}
            diag["message"] = (
                f"no element was written: the launch at line {swapped['line']} passed the output as "
                f"{swapped['output_param']}, not as the parameter your kernel stores through"
            )


def _input_holds_output(plan, payload: dict, expected: tuple, tols: dict, diagnoses: list) -> None:
    """An input the run changed that now holds one of the plan's outputs (Liger's backward writes grad_a over
    a): say which, instead of only "modified"."""
    returned: dict = payload["inputs"] if isinstance(payload.get("inputs"), dict) else {}
    for diag in diagnoses:
        if diag.get("kind") != "input-modified":
            continue
        now = returned.get(diag.get("arg"))
        if not _plain(now):
            continue
        for index, name in enumerate(plan.names):
            ref = expected[index] if index < len(expected) else None
            if not isinstance(ref, torch.Tensor) or ref.shape != now.shape:
                continue
            atol, rtol = outputs._tolerance(tols, name)
            a, e = now.detach().float(), ref.detach().float().to(now.device)
            if bool(((a - e).abs() <= atol + rtol * e.abs()).all()):
                arg = diag["arg"]
                diag["holds"] = name
                what = f"{name} (the gradient of {name[5:]})" if name.startswith("grad_") else name
                diag["message"] = (
                    f"your code stored {what} over its input {arg} ({arg} now holds {name}): inputs are "
                    f"read-only — autograd and the caller may still use {arg}; store {name} into a new "
                    f"tensor (torch.empty_like({arg}))"
                )
                break


def _upstream_overwritten(facts: dict, diagnoses: list) -> None:
    """A wrong gradient from a backward that wrote into its incoming gradient dy (the runner's fact
    `upstream_changed`: `da` stored over `dc` to save memory, then a second kernel reads dc): whatever reads
    dy afterwards sees the learner's values. Cause `upstream-overwritten`, fact `changed` (elements); said on
    the first mismatch no other pattern explained."""
    changed = _int(facts.get("upstream_changed"))
    diag = next((d for d in diagnoses if d.get("kind") == "mismatch"), None)
    if not changed or diag is None or diag.get("cause") not in (None, "all-wrong", "scaled"):
        return
    diag.update(cause="upstream-overwritten", changed=changed)
    diag["message"] = (
        f"{_head(diag)}: your backward wrote into its incoming gradient (the grad_output autograd handed it; "
        f"{changed} element{'' if changed == 1 else 's'} changed) — whatever reads it afterwards, a later "
        "kernel of yours included, sees your values instead: store each gradient into a tensor of its own "
        "(torch.empty_like)"
    )


def judge_plan_case(
    exercise,
    learner_file: str,
    params: dict,
    dtype: str,
    seed: int,
    kwargs: dict,
    inputs: dict,
    facts: dict,
    payload: dict,
    backend: str,
    first: bool,
) -> dict:
    """A case with a verify plan, decided here: the reference outputs and gradients are computed by the judge
    (torch autograd on its own copies of the inputs), each output/gradient the runner sent is compared with
    its
    own tolerance, the operator facts and the determinism re-run's tensors are checked here too."""
    plan = outputs.Plan.for_exercise(exercise, seed)
    atol, rtol = exercise_env.tolerance(exercise, dtype)
    case = _new_case(params, dtype, seed, kwargs, atol, rtol)
    _describe_inputs(case, inputs)
    diagnoses = case["diagnoses"]
    launches = [_launch_record(x) for x in facts.get("launches") or [] if isinstance(x, dict)]
    case["launches"] = [{k: launch.get(k) for k in ("kernel", "file", "grid")} for launch in launches]
    if facts.get("error") is not None:
        case["error"] = _error_dict(facts["error"])
        _input_bounds(case["error"], inputs)
        diagnoses.append(dict(case["error"]))
        return case
    if isinstance(facts.get("ms_wall"), (int, float)):
        case["ms_wall"] = facts["ms_wall"]
    stats = facts.get("stats") if isinstance(facts.get("stats"), dict) else None
    if stats is not None:
        case["stats"] = {k: _int(stats.get(k)) for k in ("bytes_loaded", "bytes_stored", "programs")}
        diagnoses.extend(_races(stats, learner_file))
    mine = [launch for launch in launches if same_file(launch.get("file"), learner_file)]
    if exercise.expect_kernel and not mine:
        what = "no Triton kernel ran" if not launches else "the kernels that ran are not defined in your file"
        diagnoses.append(
            {
                "kind": "no-kernel-launched",
                "entry": exercise.entry,
                "foreign": bool(launches),
                "message": f"{what}: {exercise.entry}() must launch the @triton.jit kernel you wrote "
                "(returning torch's own result does not count)",
            }
        )
    _guard_diagnoses(facts, diagnoses)
    _input_diagnoses(exercise, inputs, payload, diagnoses)
    assert plan is not None  # only plan cases come here
    expected = plan.reference(exercise, dict(inputs), params, kwargs)
    got = _plan_tensors(facts.get("returned"), payload.get("outputs"), diagnoses, exercise.entry)
    tols = outputs.tolerances(exercise, plan, dtype, (atol, rtol))
    plan.compare(got, expected, tols, diagnoses, case, unwritten=memcheck.is_poison)
    _zero_row(exercise, diagnoses)
    _padding_reached_plan(diagnoses, facts.get("padding_nonfinite"))
    _one_partial(exercise, plan, inputs, params, kwargs, got, tols, mine, diagnoses, learner_file)
    _layout_read(diagnoses, stats, learner_file, plan.names, got)
    _recomputed_stat(diagnoses, facts.get("forward_unread"), mine, learner_file)
    refit.along_input(exercise, plan, inputs, params, got, expected, tols, mine, diagnoses)
    refit.input_terms_per_output(plan, inputs, got, expected, tols, diagnoses)
    refit.upstream_ignored(exercise, plan, inputs, params, kwargs, got, tols, diagnoses)
    value_slips.grad_times_input(plan, inputs, got, expected, tols, diagnoses, learner_file)
    _input_holds_output(plan, payload, expected, tols, diagnoses)
    _upstream_overwritten(facts, diagnoses)
    backward_ran = bool(got) and isinstance(got[0], torch.Tensor)  # a tuple or None returned: it never did
    if plan.grad_inputs and mine and backward_ran and not any(x["phase"] == "backward" for x in mine):
        # the gradients came from torch: the forward's kernel ran, none of the learner's ran in .backward()
        diagnoses.append(
            {
                "kind": "no-kernel-launched",
                "entry": exercise.entry,
                "phase": "backward",
                "message": "no kernel of yours ran in the backward: the gradients were computed by torch — "
                "the backward must launch your Triton kernels",
            }
        )
    diagnoses.extend(_op_diagnoses(exercise, facts, learner_file))
    diagnoses.extend(_unwrapped_diagnoses(exercise, facts))
    if exercise.expect_kernel:
        diagnoses.extend(_torch_work(facts.get("torch_work"), exercise))
    # after torch-work, which names the line where torch made it
    for name in facts.get("grads_from_torch") or []:  # contract kernel_grads: torch made this gradient
        name = str(name)[:60]
        diagnoses.append(
            {
                "kind": "not-kernel-output",
                "entry": exercise.entry,
                "gradient": name,
                "output": f"grad_{name}",
                "message": f"the gradient for {name} that your backward returned was never handed to a "
                "kernel of yours: torch computed it — the backward's kernels must write it (hand the buffer "
                "to your kernel and return that buffer)",
            }
        )
    _overlapped(diagnoses, stats, learner_file)
    spec = exercise.verify
    if spec.compile and first:
        case["compile"] = (
            {"checked": False, "why": "interpreter"}
            if backend != "gpu"
            else _judge_compile(plan, facts.get("compile"), payload.get("compiled"), got, tols, diagnoses)
        )
    if diagnoses:
        case["passed"] = False
        return case
    if spec.deterministic:
        reversed_ = backend != "gpu" and facts.get("again_order") == "reversed"
        if backend == "gpu" or reversed_:
            if facts.get("again_error") is not None:
                case["error"] = _error_dict(facts["again_error"])
                diagnoses.append(dict(case["error"]))
            else:
                again = _plan_tensors(facts.get("returned"), payload.get("again"), [], exercise.entry)
                plan.compare_bits(got, again, diagnoses, order="reversed" if reversed_ else "same")
            case["deterministic"] = {"checked": True, "how": "reversed"} if reversed_ else {"checked": True}
        else:  # the interpreter runs programs one after another: any order is always the same order
            case["deterministic"] = {"checked": False, "why": "interpreter"}
    case["passed"] = not diagnoses
    return case


class _NotATensor:
    """Stands for a value the runner returned that is not a plain tensor, so the comparison names its type."""


def _plan_tensors(returned, tensors, diagnoses: list, entry: str) -> tuple:
    """The outputs in plan order, rebuilt from the runner's facts ("Tensor", None or a type name per value)
    and
    the plain tensors it saved. A value said to be a tensor that did not arrive as a plain one is named."""
    returned = returned[:64] if isinstance(returned, list) else []
    tensors = tensors if isinstance(tensors, dict) else {}
    values: list[Any] = []
    for index, kind in enumerate(returned):
        tensor = tensors.get(str(index))
        if kind is None:
            values.append(None)
        elif kind == "Tensor" and _plain(tensor):
            values.append(tensor)
        else:
            name = "".join(ch for ch in str(kind) if ch.isalnum() or ch == "_")[:80] or "value"
            if kind == "Tensor" or str(kind).startswith("subclass:"):
                name = name.removeprefix("subclass")
                diagnoses.append(
                    {
                        "kind": "not-a-plain-tensor",
                        "entry": entry,
                        "returned": name,
                        "message": f"{entry}() returned a {name} the lab cannot accept as a plain "
                        "torch.Tensor (a tensor subclass or a forged result): return the "
                        "tensors your kernels wrote",
                    }
                )
            values.append(type(name, (_NotATensor,), {})())
    return tuple(values)


def _op_diagnoses(exercise, facts: dict, learner_file: str) -> list[dict]:
    """The lesson's operators must have been dispatched (the runner's fact) and registered by the learner's
    file (the function torch.library runs for it, as the runner found it)."""
    wanted = list(exercise.verify.ops or [])
    seen = {str(n) for n in facts.get("ops_seen") or [] if isinstance(n, str)}
    origins: dict[str, Any] = facts["ops_origin"] if isinstance(facts.get("ops_origin"), dict) else {}
    recorder = outputs.OpRecorder(wanted)
    recorder.seen = seen & set(wanted)
    found = [d for d in outputs.op_diagnoses(recorder, learner_file) if d["kind"] == "op-not-used"]
    for name in wanted:
        origin = origins.get(name)
        if name in seen and isinstance(origin, str) and origin and not same_file(origin, learner_file):
            found.append(
                {
                    "kind": "op-not-yours",
                    "op": name,
                    "origin": origin[:4096],
                    "message": f"the operator {name} that ran was registered by {origin[:4096]}, not by your "
                    "file: register it in your file with @triton_op",
                }
            )
    registered: dict[str, Any] = (
        facts["ops_registered"] if isinstance(facts.get("ops_registered"), dict) else {}
    )
    for name in wanted:
        how = registered.get(name)
        if name in seen and how in ("custom_op", "library"):
            by = "torch.library.custom_op" if how == "custom_op" else "torch.library.define/impl"
            found.append(
                {
                    "kind": "op-not-triton",
                    "op": name,
                    "how": how,
                    "message": f"the operator {name} is registered with {by}: torch.compile treats such an "
                    "operator as a black box and never sees its Triton kernels — register it with "
                    "@torch.library.triton_op and launch the kernels through wrap_triton",
                }
            )
    for item in facts.get("ops_mutated") or []:
        op, arg = (item.get(k) if isinstance(item, dict) else None for k in ("op", "arg"))
        if op in wanted and isinstance(arg, str) and arg.isidentifier():
            found.append(
                {
                    "kind": "op-mutates",
                    "op": op,
                    "arg": arg,
                    "message": f"the operator {op} changed its argument {arg}, which it does not declare "
                    f"mutated: torch.compile and autograd take an operator's inputs as read-only unless "
                    f"mutates_args names them — store into a new tensor, or declare mutates_args={{'{arg}'}}",
                }
            )
    return found


def _unwrapped_diagnoses(exercise, facts: dict) -> list[dict]:
    """A kernel launched bare (`kernel[grid](...)`, not `wrap_triton(kernel)[grid](...)`) inside an
    operator's body (the runner's fact, `op_launches`): eagerly the same launch, but torch.compile cannot
    trace it. Judged only in an exercise that asks for operators (lesson 12): elsewhere a triton_op is the
    learner's own choice."""
    if not exercise.verify.ops:
        return []
    found: list[dict] = []
    for item in facts.get("unwrapped") or []:
        if not isinstance(item, dict):
            continue
        kernel = str(item.get("kernel") or "")[:200] or None
        op = str(item.get("op") or "")[:200] or None
        line = item.get("line") if isinstance(item.get("line"), int) and item["line"] > 0 else None
        if any(d["kernel"] == kernel and d["line"] == line for d in found):
            continue
        name = kernel or "kernel"
        inside = f"inside the operator {op}" if op else "inside a triton_op"
        at = f" (line {line})" if line else ""
        found.append(
            {
                "kind": "kernel-not-wrapped",
                "kernel": kernel,
                "op": op,
                "line": line,
                "message": f"{name} is launched directly as {name}[grid](...) {inside}{at}: "
                "torch.compile cannot trace a bare launch inside an operator — launch it as "
                f"wrap_triton({name})[grid](...)",
            }
        )
    return found[:4]


def _judge_compile(plan, facts, compiled, eager: tuple, tols: dict, diagnoses: list) -> dict:
    """torch.compile's outcome (the runner's fact) and its tensors against the eager ones, compared here."""
    facts = facts if isinstance(facts, dict) else {}
    if facts.get("checked") is not True:
        return {"checked": False, "why": "not run"}
    if diagnoses or not all(
        _plain(t) for t in eager
    ):  # numerics first: nothing right to compare compiled with
        return {
            "checked": True,
            "passed": False,
            "why": "eager-fails",
            "graph_breaks": _int(facts.get("graph_breaks")),
        }
    found: list = []
    if _int(facts.get("graph_breaks")) or not isinstance(compiled, dict):
        found.append(
            {
                "kind": "graph-break",
                "error": str(facts.get("error") or "")[:80],
                "message": f"torch.compile(fullgraph=True) failed: {str(facts.get('message') or '')[:300]}",
            }
        )
    else:
        names = [f"{i}" for i in range(len(plan.names))]
        got = tuple(compiled.get(n) if _plain(compiled.get(n)) else None for n in names)
        plan.compare(got, eager, tols, found, {})
        for diag in found:
            if diag["kind"] != "wrong-outputs":
                diag["differs_as"] = diag["kind"]  # what the comparison found, said after "compiled:"
                diag["kind"] = "compiled-differs"
            diag["message"] = f"compiled: {diag['message']}"
    diagnoses.extend(found)
    return {"checked": True, "passed": not found, "graph_breaks": _int(facts.get("graph_breaks"))}


def judge_case(
    exercise,
    learner_file: str,
    params: dict,
    dtype: str,
    seed: int,
    kwargs: dict,
    inputs: dict,
    facts: dict,
    payload: dict,
    device,
) -> dict:
    atol, rtol = exercise_env.tolerance(exercise, dtype)
    case = _new_case(params, dtype, seed, kwargs, atol, rtol)
    _describe_inputs(case, inputs)
    diagnoses = case["diagnoses"]
    warned = _interpreter_warnings(facts.get("interpreter_warnings"))
    if warned:
        case["interpreter_warnings"] = warned
    notes = [
        n for n in facts.get("notes") or [] if isinstance(n, dict) and n.get("kind") in contracts.NOTE_KINDS
    ]
    if notes:
        case["notes"] = notes
    diagnoses.extend(
        d
        for d in facts.get("file_facts") or []
        if isinstance(d, dict) and d.get("kind") in contracts.FACT_KINDS
    )
    launches = [_launch_record(x) for x in facts.get("launches") or [] if isinstance(x, dict)]
    case["launches"] = [{k: launch.get(k) for k in ("kernel", "file", "grid")} for launch in launches]
    missing = _keyword_missing(exercise, kwargs, facts.get("missing_keywords"))
    if missing is not None:  # the wrapper was not called: it cannot take what this case passes
        diagnoses.append(missing)
        return case
    if facts.get("error") is not None:
        case["error"] = _error_dict(facts["error"])
        _input_bounds(case["error"], inputs)
        _block_not_pow2(case["error"], launches, learner_file)
        _grid_over(case["error"], launches, exercise, inputs, params, kwargs, learner_file)
        diagnoses.append(dict(case["error"]))
        return case
    if isinstance(facts.get("ms_wall"), (int, float)):
        case["ms_wall"] = facts["ms_wall"]
    stats = facts.get("stats") if isinstance(facts.get("stats"), dict) else None
    if stats is not None:
        case["stats"] = {k: _int(stats.get(k)) for k in ("bytes_loaded", "bytes_stored", "programs")}
        partly = (facts.get("provenance") or {}).get("partly_read")
        if isinstance(partly, list) and partly:  # inputs some of whose elements no load reached
            case["stats"]["unread"] = [p for p in partly if isinstance(p, dict)][:4]
        diagnoses.extend(_races(stats, learner_file))
    mine = [launch for launch in launches if same_file(launch.get("file"), learner_file)]
    returned = payload.get("out")
    # an empty output has nothing to compute: returned without a launch is right (its shape is still checked)
    nothing_to_do = _plain(returned) and returned.numel() == 0
    if exercise.expect_kernel and not mine and not nothing_to_do:
        what = "no Triton kernel ran" if not launches else "the kernels that ran are not defined in your file"
        diagnoses.append(
            {
                "kind": "no-kernel-launched",
                "entry": exercise.entry,
                "foreign": bool(launches),
                "message": f"{what}: {exercise.entry}() must launch the @triton.jit kernel you wrote "
                "(returning torch's own result does not count)",
            }
        )
    _guard_diagnoses(facts, diagnoses)
    _input_diagnoses(exercise, inputs, payload, diagnoses)
    _launch_order(diagnoses, facts.get("bindings"), learner_file)

    expected = exercise_env.reference(exercise, dict(inputs), params, kwargs)
    declared = atol
    atol = exercise_env.rounding_atol(exercise, dict(inputs), params, kwargs, atol)
    if atol != declared:  # a long sum: the case's atol covers float32's rounding in any summation order
        case.update(atol=atol, atol_declared=declared)
    got = payload.get("out")
    returned_type = str(facts.get("returned") or "")
    if not _plain(got):
        if facts.get("returned_tensor") is True or "missing" in payload or got is not None:
            diagnoses.append(
                {
                    "kind": "not-a-plain-tensor",
                    "entry": exercise.entry,
                    "returned": returned_type[:80],
                    "message": f"{exercise.entry}() returned a {returned_type[:80] or 'value'} the lab "
                    "cannot accept as a plain torch.Tensor (a tensor subclass or a forged "
                    "result): return the output tensor your kernel wrote",
                }
            )
        else:
            diagnoses.append(
                {
                    "kind": "wrong-shape",
                    "got_type": returned_type[:80],
                    "message": f"the wrapper returned {returned_type[:80]}, "
                    "not a torch.Tensor — return the output tensor",
                }
            )
        return case
    if not _check_output(got, expected, diagnoses, case.get("dtype")):
        _contract_lines(diagnoses, mine, learner_file, exercise.entry)  # a wrong dtype's allocation
        return case
    if exercise.expect_kernel and mine:
        _provenance(facts.get("provenance"), got, exercise.entry, diagnoses)
    if exercise.expect_kernel:
        diagnoses.extend(_torch_work(facts.get("torch_work"), exercise))
    diagnoses.extend(_default_device(facts.get("default_device"), dict(inputs)))
    diagnoses.extend(
        d
        for d in facts.get("contracts") or []
        if isinstance(d, dict) and d.get("kind") in contracts.FACT_KINDS
    )
    _contract_lines(diagnoses, mine, learner_file, exercise.entry)

    assert got is not None  # _check_output returned False for anything but a tensor
    unwritten = memcheck.is_poison(got) if got.numel() else None
    unwritten = _poison_through_cast(got, unwritten, facts.get("provenance"))
    block = kwargs.get("BLOCK_SIZE") or _launch_block(mine) or facts.get("block_guess")
    block = block if isinstance(block, int) and not isinstance(block, bool) and block > 0 else None
    if block and not any(isinstance(v, torch.Tensor) and v.numel() == got.numel() for v in inputs.values()):
        # a reduction's BLOCK_SIZE chunks its input (a row sum's columns), not its output: no tail claims
        block = None
    report = diagnose(
        got.detach(),
        expected.to(got.device),
        atol=atol,
        rtol=rtol,
        unwritten_mask=unwritten,
        block_size=block,
    )
    if "atol_declared" in case:  # the mismatch says its atol is the sum's rounding, not the lesson's number
        for diag in report.get("diagnoses", []):
            if diag.get("kind") == "mismatch":
                diag["atol_declared"] = case["atol_declared"]
    _refine_unwritten(report.get("diagnoses", []), mine, block, got.numel(), facts.get("provenance"))
    _refine_stores(
        report.get("diagnoses", []),
        facts.get("provenance"),
        bool(mine),
        learner_file,
        bool((exercise.verify.contracts or {}).get("store_once")),
    )
    _store_mask_named(report.get("diagnoses", []), mine, learner_file)
    provenance = facts.get("provenance")
    twice = _int(provenance.get("stored_twice")) if isinstance(provenance, dict) else 0
    if (exercise.verify.contracts or {}).get("store_once") and twice:
        # a persistent loop that does not step by the program count: every tile is computed by several
        # programs — right values, the exercise's point missed (the interpreter records every store)
        steps = _loop_has_step(learner_file) and _tile_loop_wrong_step(learner_file, mine) is None
        report.setdefault("diagnoses", []).append(
            {
                "kind": "stored-twice",
                "count": twice,
                "loop_steps": steps,
                "message": (
                    f"{twice} elements of the output were stored by more than one program, though the "
                    "tile loop steps by the program count: two tile ids map to the same tile — check how a "
                    "tile id becomes (pid_m, pid_n): in the grouped order the group's height is "
                    "h = min(num_pid_m - first_pid_m, GROUP_M), pid_m = first_pid_m + tile_id % h and "
                    "pid_n = (tile_id % num_pid_in_group) // h — h, not GROUP_M"
                )
                if steps
                else f"{twice} elements of the output were stored by more than one program: tiles are "
                "computed several times — step the tile loop by the number of programs "
                "(for tile_id in range(pid, num_tiles, NUM_PROGRAMS))",
            }
        )
    # the tile grid covers the output, or the input the lesson names (a transpose tiles x, not its [N, M] out)
    over = (exercise.verify.contracts or {}).get("tiles_over")
    tiled = inputs.get(over) if over else None
    tiled_shape = tuple(tiled.shape) if isinstance(tiled, torch.Tensor) else tuple(got.shape)
    contracts.explain_unwritten(report.get("diagnoses", []), mine, block, tiled_shape, known=diagnoses)
    if (exercise.verify.contracts or {}).get("store_once"):
        # a persistent kernel launches fewer programs than tiles on purpose: tiles left unwritten are the
        # tile loop's, not the grid's ("launch cdiv programs" would undo the exercise)
        for diag in report.get("diagnoses", []):
            if diag.get("kind") == "unwritten" and diag.get("cause") in (
                "grid-fewer-programs",
                "tile-map",
                "grid-floor",
                "grid-short",
                "rows-short",
                "columns-short",
                "tiles",
            ):
                diag["cause"] = "tile-loop"
                stepped = _tile_loop_wrong_step(learner_file, mine)
                if stepped is not None:  # the loop does not step by the program count: it skips tiles
                    diag.update(cause="tile-loop", **stepped)
                    line, step = stepped["line"], stepped["step"]
                    head = f"{diag.get('count')} elements were never written: the tile loop at line {line}"
                    if stepped["form"] == "stop":
                        diag["message"] = (
                            f"{head} ({stepped['call']}) steps by {step} — its own stop — so each program "
                            "computes only its first tile and leaves the loop: step by the program count P "
                            "(NUM_PROGRAMS, tl.num_programs(0)), so that program pid takes tiles pid, "
                            "pid + P, pid + 2P, …"
                        )
                    else:
                        value, programs = stepped["step_value"], stepped["programs"]
                        diag["message"] = (
                            f"{head} ({stepped['call']}) steps by {step} = {value}, a tile size, but the "
                            f"grid launched {programs} programs — program pid takes tiles pid, "
                            f"pid + {value}, …, and the tiles in between get no program: step by the program "
                            "count P (tiles pid, pid + P, pid + 2P, …)"
                        )
                    continue
                mapping = _tile_map_line(learner_file)
                if mapping is not None:  # the loop takes every id: two ids map to one tile
                    line, text = mapping
                    diag.update(cause="tile-id-map", line=line, call=text)
                    diag["message"] = (
                        f"{diag.get('count')} elements were never written, though the tile loop takes "
                        "every tile id once (it starts at the program id and steps by the program count): "
                        "some ids map to the wrong tile — check how a tile id becomes its (pid_m, pid_n) at "
                        f"line {line} ({text}): the grid's sizes in their order, and the group's real height "
                        "min(num_pid_m - first_pid_m, GROUP_M)"
                    )
                    continue
                floor = _floor_tile_count(learner_file)
                if floor is not None:
                    line, name, text = floor
                    diag.update(line=line, count_name=name, count_text=text)
                    diag["message"] = (
                        f"{diag.get('count')} elements were never written: the tile loop's count {name} = "
                        f"{text} (line {line}) is rounded down — when num_tiles is not a multiple of the "
                        "program count P, the last num_tiles % P tiles get no program: give the programs "
                        "below num_tiles % P one more tile, or loop for tile_id in range(pid, num_tiles, P)"
                    )
                    continue
                diag["message"] = (
                    f"{diag.get('count')} elements were never written: the persistent tile loop never "
                    "reached some tiles — with P programs, program pid must take tiles pid, pid + P, "
                    "pid + 2P, … while below num_tiles (start at tl.program_id(0), step by P, and map each "
                    "tile id to its (pid_m, pid_n) inside the range)"
                )
    _value_masked(report.get("diagnoses", []), unwritten, dict(inputs), expected, learner_file)
    for key in ("max_abs_err", "max_rel_err", "mismatches", "first", "map", "map_grid"):
        case[key] = report.get(key)
    _zero_row(exercise, report.get("diagnoses", []))
    _padding_reached(report.get("diagnoses", []), stats, facts.get("padding_nonfinite"))
    blocks = _case_blocks(exercise, mine)
    # the reference recomputed under one changed premise (padding counted in, another scale) before the value
    # patterns below, which would call such an output "scaled" or "nearly right"
    refit.explain(report.get("diagnoses", []), exercise, got, inputs, params, kwargs, blocks, atol, rtol)
    value_slips.sigmoid_sign(
        report.get("diagnoses", []), exercise, got, expected, inputs, params, kwargs, atol, rtol, learner_file
    )
    refit.padding_in_sum(report.get("diagnoses", []), exercise, got, inputs, blocks, atol, rtol, learner_file)
    refit.chunk_scale(report.get("diagnoses", []), got, expected, blocks, atol, rtol, learner_file)
    refit.lead_rows(report.get("diagnoses", []), exercise, got, expected, params)
    _explain_values(
        report.get("diagnoses", []),
        got,
        expected,
        inputs,
        atol,
        rtol,
        learner_file,
        mean_n=_mean_length(exercise, got),
    )
    _tf32_dot(
        report.get("diagnoses", []),
        exercise,
        inputs,
        params,
        kwargs,
        got,
        expected,
        learner_file,
        on_gpu=got.device.type == "cuda",
    )
    refit.input_axis(report.get("diagnoses", []), exercise, got, inputs, params, kwargs, atol, rtol)
    _input_first_block(
        report.get("diagnoses", []), exercise, got, inputs, params, kwargs, blocks, atol, rtol, learner_file
    )
    refit.input_terms(report.get("diagnoses", []), got, expected, inputs, atol, rtol)
    refit.softmax_temperature(report.get("diagnoses", []), exercise, got, inputs, params, kwargs, atol, rtol)
    refit.log_units(
        report.get("diagnoses", []), exercise, got, expected, inputs, params, kwargs, atol, rtol, learner_file
    )
    if blocks:
        case["meta"] = dict(blocks)  # the tile sizes of the learner's launch: a K-loop pattern reads BLOCK_K
        _k_loop(report.get("diagnoses", []), got, inputs, params, blocks, kwargs, atol, rtol, learner_file)
        _carried_tiles(report.get("diagnoses", []), got, expected, blocks, atol, rtol)
    _all_zero_stored(report.get("diagnoses", []), facts.get("provenance"), got.numel(), learner_file)
    _input_unread(report.get("diagnoses", []), facts.get("provenance"), learner_file)
    _stride_unused(report.get("diagnoses", []), learner_file, inputs)
    # one value per program's block expected (a program map): what the output holds inside each block
    _block_values(report.get("diagnoses", []), got, expected, block, atol, rtol, unwritten, twice)
    _overlapped(report.get("diagnoses", []), stats, learner_file)
    _benched_into_output(report.get("diagnoses", []), got, expected, _int(facts.get("autotune_benched")))
    _other_variant(
        report.get("diagnoses", []), exercise, inputs, params, kwargs, got, expected, atol, rtol, learner_file
    )
    _negatives_zeroed(report.get("diagnoses", []), got, expected, kwargs, atol, rtol, learner_file)
    if stats is not None and (facts.get("padding_nonfinite") is False or not stats.get("padded")):
        # last: every pattern above names its own cause first; this is what is left of an inf/NaN
        _nonfinite_from_finite(report.get("diagnoses", []), got, expected, inputs)
    diagnoses.extend(report.get("diagnoses", []))
    pinned = facts.get("autotune_config") if isinstance(facts.get("autotune_config"), dict) else None
    _output_passed_as(diagnoses)
    _zero_division(diagnoses, case.get("interpreter_warnings"), learner_file, pinned)
    if not any(d.get("zero_division") for d in diagnoses):
        _zero_division_passed(diagnoses, case.get("interpreter_warnings"), learner_file, pinned)

    budget = exercise.verify.bytes_budget
    if budget and facts.get("checked") and stats is not None and not diagnoses:  # numerics first
        size = exercise_env.element_size(dtype)
        limit = exercise_env.evaluate_bytes(budget, params, size)
        loaded, stored = case["stats"]["bytes_loaded"], case["stats"]["bytes_stored"]
        moved = loaded + stored
        case["bytes_budget"] = limit
        # the budget is about reading the input once: loads are held to it, less the output's own bytes; a
        # store beyond the output (rstd kept for the backward, Liger's way) is a design choice, not a re-read
        output_bytes = got.numel() * got.element_size()
        if moved > limit and loaded > limit - output_bytes:
            reread = [
                r
                for r in stats.get("reread") or []
                if isinstance(r, dict) and isinstance(r.get("arg"), str) and isinstance(r.get("line"), int)
            ][:3]
            again = (
                ": "
                + "; ".join(
                    f"{r['arg'][:60]} is loaded again at line {r['line']}, by a program that had already "
                    "loaded those elements"
                    for r in reread
                )
                if reread
                else " — it reads some data more than once"
            )
            diagnoses.append(
                {
                    "kind": "perf-bytes",
                    "moved": moved,
                    "budget": limit,
                    "loaded": loaded,
                    "reads": int(limit - output_bytes),
                    "reread": [{"arg": r["arg"][:60], "line": r["line"]} for r in reread],
                    "line": reread[0]["line"] if reread else None,
                    "message": f"correct, but the kernel moved {moved:,} bytes where {int(limit):,} are "
                    f"enough: it loaded {loaded:,} bytes where {int(limit - output_bytes):,} are "
                    f"enough{again}",
                }
            )
    case["passed"] = not diagnoses
    return case


def _keyword_missing(exercise, kwargs: dict, names) -> dict | None:
    """`keyword-missing`: the runner found that the wrapper's signature takes no parameter for an optional
    input this case passes ("@with") or for a variant keyword the reference reads (kw.get(...)). Only names
    this case really passes are believed."""
    if not isinstance(names, list) or not names:
        return None
    passed = optional_passed(exercise, kwargs)
    read = contracts.reference_keywords(exercise.reference) & set(contracts.directives(kwargs)[0])
    inputs = [n for n in passed if n in names]
    keywords = sorted(n for n in read if n in names)
    if not inputs and not keywords:
        return None
    shown = [f"{n}={n}" for n in inputs] + [f"{n}={kwargs[n]!r}" for n in keywords]
    entry = exercise.entry
    return {
        "kind": "keyword-missing",
        "entry": entry,
        "names": inputs + keywords,
        "inputs": inputs,
        "call": f"{entry}(..., {', '.join(shown)})",
        "message": f"{entry}() takes no {', '.join(inputs + keywords)} argument, but this case calls "
        f"{entry}(..., {', '.join(shown)}) and the expected values depend on it: keep the parameter (as the "
        "exercise's wrapper has it) and use it",
    }


def _default_device(found, inputs: dict) -> list[dict]:
    """The runner's fact `default_device`: a learner kernel was given a buffer that a line of the file
    allocated with no device= (torch's default device, the CPU). Here the inputs are on the CPU too; on a GPU
    box they are not, and the launch fails there."""
    lines = [f["line"] for f in found or [] if isinstance(f, dict) and isinstance(f.get("line"), int)]
    if not lines or any(isinstance(v, torch.Tensor) and v.device.type != "cpu" for v in inputs.values()):
        return []
    return [
        {
            "kind": "wrong-device",
            "cause": "default-device",
            "line": lines[0],
            "got": "cpu",
            "expected": "the inputs' device",
            "message": f"line {lines[0]} allocates a buffer your kernel is given with no device=: torch puts "
            "it on its default device, the CPU — the same as the inputs here, but not on a GPU, where the "
            "launch fails: allocate it with device=x.device (or torch.empty_like(x))",
        }
    ]


def _torch_work(found, exercise) -> list[dict]:
    """The runner's fact `torch_work` (engine/torch_work.py): a reduction, product, activation or backward
    formula that torch ran on an input's values from a line of the learner's file (or elementwise arithmetic
    whose result a kernel was handed). One diagnosis, naming the first such operator and line (and how many
    more there were). Operators the exercise allows torch (contract `torch_ops`) do not count."""
    entry = exercise.entry
    allowed = {str(op) for op in (exercise.verify.contracts or {}).get("torch_ops") or []}
    items = [
        f
        for f in found or []
        if isinstance(f, dict)
        and isinstance(f.get("op"), str)
        and isinstance(f.get("line"), int)
        and f["op"] not in allowed
    ]
    if not items:
        return []
    first = items[0]
    op, name, line = first["op"][:80], str(first.get("input") or "?")[:80], first["line"]
    more = [f"{f['op'][:80]} (line {f['line']})" for f in items[1:4]]
    return [
        {
            "kind": "torch-work",
            "entry": entry,
            "op": op,
            "input": name,
            "line": line,
            "handed": first.get("handed") is True,
            "others": more,
            "message": f"line {line}: PyTorch computed {op} on values of the input {name} (the call your "
            f"{entry}() makes there): the exercise asks your Triton kernel to do that computation — the "
            "wrapper may allocate, reshape, cast and launch, but the arithmetic on the inputs must be the "
            "kernel's" + (f"; also {', '.join(more)}" if more else ""),
        }
    ]


def _provenance(facts, got, entry: str, diagnoses: list) -> None:
    """The returned tensor must be memory a learner kernel wrote, every element of it, and nothing after."""
    facts = facts if isinstance(facts, dict) else {}
    numel = got.numel()
    if isinstance(facts.get("returned_input"), str):
        name = facts["returned_input"][:80]
        diagnoses.append(
            {
                "kind": "returned-input",
                "entry": entry,
                "input": name,
                "message": f"your {entry}() returned its input {name} itself, not an output tensor your "
                "kernel wrote: allocate the output, pass it to the kernel and return it",
            }
        )
        return
    if facts.get("from_launch") is not True:
        diagnoses.append(
            {
                "kind": "not-kernel-output",
                "entry": entry,
                "message": f"your {entry}() returned a tensor that no kernel of yours wrote: its memory "
                "was never handed to your kernel (it was computed by torch or copied) — "
                "return the output tensor you passed to the kernel",
            }
        )
        return
    if facts.get("prefilled") is True and facts.get("loads_output") is True:
        diagnoses.append(
            {
                "kind": "prefilled-output",
                "entry": entry,
                "message": f"the output already held these exact values before your first kernel ran (torch, "
                f"a Config pre_hook or {entry}() wrote them), and your kernel loaded them back: the answer "
                "must come from your kernel's own arithmetic on the inputs",
            }
        )
    copied = facts.get("copied")
    if isinstance(copied, dict):
        kernel, argument = str(copied.get("kernel", "?"))[:100], str(copied.get("argument", "?"))[:100]
        beside = copied.get("beside_inputs") is True
        diagnoses.append(
            {
                "kind": "copied-answer",
                "entry": entry,
                "kernel": kernel,
                "argument": argument,
                "beside_inputs": beside,
                "message": f"your {entry}() returned an exact copy of `{argument}`, which {kernel} was given "
                "but no kernel of yours computed (torch or numpy did)"
                + (
                    f"; {kernel} also loaded the inputs, but when the lab changed `{argument}` the output "
                    "changed with it"
                    if beside
                    else ""
                )
                + ": the answer must come from your kernel's own arithmetic on the inputs",
            }
        )
    after = min(_int(facts.get("after_changed")), numel)
    if after:
        diagnoses.append(
            {
                "kind": "written-after-kernel",
                "entry": entry,
                "count": after,
                "first": _ints(facts.get("after_first")),
                "message": f"{after} element(s) of the output were changed after your kernel finished "
                f"(by torch or Python code in {entry}()): the result must be what the kernel "
                "stored",
            }
        )
    not_stored = min(_int(facts.get("not_stored")), numel)
    if not_stored:
        diagnoses.append(
            {
                "kind": "partly-written-by-torch",
                "entry": entry,
                "count": not_stored,
                "first": _ints(facts.get("not_stored_first")),
                "message": f"{not_stored} element(s) of the output hold values no kernel of yours "
                "stored (they were filled by torch or Python code): every element must be "
                "stored by the kernel",
            }
        )


def _contract_lines(diagnoses: list, mine: list, learner_file: str, entry: str | None) -> None:
    """The learner's line of a contract fact where one line makes it: a `grid-size` fact's grid (the one
    launch site of its kernel, `contracts.grid_line`), an `output-layout` fact's returned tensor (the one
    assignment of the name the wrapper returns, `contracts.returned_line`), and the same line for a
    `wrong-dtype` output (the allocation that gave it its dtype, quoted as `code`)."""
    import linecache

    for diag in diagnoses:
        if "line" in diag:
            continue
        line = None
        if diag.get("kind") == "grid-size" and mine:
            kernels = {launch.get("kernel") for launch in mine}
            line = contracts.grid_line(learner_file, kernels.pop()) if len(kernels) == 1 else None
        elif diag.get("kind") == "output-layout":
            line = contracts.returned_line(learner_file, entry)
        elif diag.get("kind") == "wrong-dtype" and "output" not in diag:
            line = contracts.returned_line(learner_file, entry)
            code = linecache.getline(learner_file, line).strip()[:120] if line else ""
            if line and code:
                diag["code"] = code
                diag["message"] = _dtype_message(diag, line, code)
        if line:
            diag["line"] = line


def _dtype_message(diag: dict, line: int, code: str) -> str:
    """The `wrong-dtype` message with the line that made the returned tensor (`code`)."""
    got, wanted = (str(diag.get(k)).replace("torch.", "") for k in ("got", "expected"))
    if diag.get("fixed"):
        return (
            f"output dtype {got}, expected {wanted} — this output is {wanted} whatever the inputs' dtype: "
            f"allocate it with dtype=torch.{wanted} at line {line} ({code})"
        )
    return (
        f"output dtype {got}, expected {wanted} — line {line} makes it {got} ({code}): allocate it like the "
        "input (torch.empty_like) or pass dtype="
    )


def _launch_record(launch: dict) -> dict:
    grid = launch.get("grid")
    grid = (
        [g for g in grid if isinstance(g, int) and not isinstance(g, bool)][:3]
        if isinstance(grid, list)
        else None
    )
    meta: dict[str, Any] = launch["meta"] if isinstance(launch.get("meta"), dict) else {}
    return {
        "kernel": str(launch.get("kernel") or "")[:200],
        "file": str(launch.get("file") or "")[:4096],
        "grid": grid or None,
        "meta": {str(k): v for k, v in meta.items() if isinstance(v, int) and not isinstance(v, bool)},
        "grid_fn": launch.get("grid_fn") is True,
        "pid_axes": launch["pid_axes"] if launch.get("pid_axes") in (1, 2, 3) else None,
        "phase": "backward" if launch.get("phase") == "backward" else "forward",
    }


def _check_output(got, expected, diagnoses: list, case_dtype=None) -> bool:
    if not isinstance(got, torch.Tensor):
        diagnoses.append(
            {
                "kind": "wrong-shape",
                "got_type": type(got).__name__,
                "message": f"the wrapper returned {type(got).__name__}, "
                "not a torch.Tensor — return the output tensor",
            }
        )
        return False
    ok = True
    if tuple(got.shape) != tuple(expected.shape):
        diagnoses.append(
            {
                "kind": "wrong-shape",
                "got": list(got.shape),
                "expected": list(expected.shape),
                "message": f"output shape {tuple(got.shape)}, expected {tuple(expected.shape)}",
            }
        )
        ok = False
    if got.dtype != expected.dtype:
        wanted = str(expected.dtype).replace("torch.", "")
        # an output whose dtype is fixed (a float32 loss from 16-bit logits): "like the input" is the bug
        fixed = case_dtype is not None and str(case_dtype) != wanted
        diagnoses.append(
            {
                "kind": "wrong-dtype",
                "got": str(got.dtype),
                "expected": str(expected.dtype),
                "fixed": fixed,
                "message": f"output dtype {str(got.dtype).replace('torch.', '')}, expected {wanted} — "
                + (
                    f"this output is {wanted} whatever the inputs' dtype: allocate it with "
                    f"dtype=torch.{wanted}"
                    if fixed
                    else "allocate it like the input (torch.empty_like) or pass dtype="
                ),
            }
        )
        # same shape and both floating point: still compare the values, so the report says more than the dtype
        if not (got.shape == expected.shape and got.is_floating_point() and expected.is_floating_point()):
            ok = False
    if got.device.type != expected.device.type:
        diagnoses.append(
            {
                "kind": "wrong-device",
                "got": str(got.device),
                "expected": str(expected.device),
                "message": f"output is on {got.device}, inputs are on {expected.device}",
            }
        )
        ok = False
    return ok


#: exceptions that are a bug in the check itself, never a refusal: a misspelled name (`raise ValueErorr`), an
#: attribute that does not exist (`x.is_contigous()`), a failed import
NOT_A_REFUSAL = ("NameError", "AttributeError", "ImportError", "SyntaxError", "RecursionError")


def _refusal_problem(facts: dict, refuse_with: list[str]) -> dict | None:
    """Why an exception raised before the launch is not the refusal the exercise asks for (None: it is)."""
    types = facts.get("raised_types")
    if not isinstance(types, list) or not types:
        types = [str(facts.get("raised", "")).split(":")[0]]
    types = [str(t) for t in types]
    facts_line = facts.get("raised_line")
    line = facts_line if isinstance(facts_line, int) and not isinstance(facts_line, bool) else None
    raised = str(facts.get("raised", ""))[:300]
    broken = next((t for t in NOT_A_REFUSAL if t in types), None)
    if broken is not None:
        return {"cause": "broken-check", "exception": raised, "type": types[0], "line": line}
    if refuse_with and not any(t in types for t in refuse_with):
        return {
            "cause": "refused-with",
            "exception": raised,
            "type": types[0],
            "expected_types": list(refuse_with),
            "line": line,
        }
    return None


def _new_case(params: dict, dtype: str, seed, kwargs: dict, atol: float, rtol: float) -> dict[str, Any]:
    """A case's record before judging: failing, with no errors measured yet."""
    return {
        "params": params,
        "dtype": dtype,
        "seed": seed,
        "kwargs": kwargs,
        "passed": False,
        "max_abs_err": None,
        "max_rel_err": None,
        "mismatches": None,
        "diagnoses": [],
        "atol": atol,
        "rtol": rtol,
    }


def judge_reject(
    reject,
    facts: dict | None,
    path: str | None = None,
    refuse_with: list[str] | None = None,
    entry: str | None = None,
) -> dict:
    """A reject case passes when the wrapper raised before any launch (the runner's facts, sanity-checked),
    with an exception that is a refusal: not a bug in the check (NameError, ...), and of a class the exercise
    names in `refuse_with` when it names any. An input that reached the kernel past a check of the wrapper
    `entry` joined with the wrong `and`/`or` names that check (`contracts.check_let_through`)."""
    case: dict[str, Any] = {
        "name": f"rejects {reject.name}",
        "kind": "reject",
        "passed": False,
        "max_abs_err": None,
        "max_rel_err": None,
        "mismatches": None,
        "diagnoses": [],
        "why": reject.why,
    }
    facts = facts if isinstance(facts, dict) else {}
    if isinstance(facts.get("inputs"), dict):
        case["inputs"] = {str(k): str(v)[:200] for k, v in facts["inputs"].items()}
    if isinstance(facts.get("input_facts"), dict):
        case["input_facts"] = {str(k): v for k, v in facts["input_facts"].items() if isinstance(v, dict)}
    if facts.get("lesson_error"):
        case["diagnoses"].append(
            {
                "kind": "lesson",
                "exception": facts["lesson_error"],
                "message": f"cannot build this case: {facts['lesson_error']}",
            }
        )
        return case
    raised = facts.get("raised")
    if isinstance(raised, str):
        if facts.get("launched"):
            info = _error_dict(facts.get("error"))
            if _raised_by_learner(info, path):  # their own check, written after the launch
                case["diagnoses"].append(
                    {
                        "kind": "validation",
                        "cause": "checked-after-launch",
                        "error": info,
                        "line": info.get("line"),
                        "message": f"your check raised ({info['message']}) at line {info.get('line')}, but "
                        "only after the kernel had already run with this input: move the checks above the "
                        "launch",
                    }
                )
                return case
            given = case.get("input_facts") or {}
            let = contracts.check_let_through(path, entry, given) if given else None
            if let is not None:  # a check is there, but its and/or lets this input through
                op, other = let["op"], "and" if let["op"] == "or" else "or"
                said = [f"{p['text']} is {p['value']}" for p in let["parts"]]
                parts = ", ".join(said[:-1]) + (" and " if len(said) > 1 else "") + (said[-1] if said else "")
                case["diagnoses"].append(
                    {
                        "kind": "validation",
                        "cause": "failed-in-kernel",
                        "error": info,
                        "line": let["line"],
                        "check": let,
                        "message": f"this input reached the kernel past your check at line {let['line']} "
                        f"(if {let['check']}): here {parts}; `{op}` is "
                        + (
                            "True when any one of its parts is, so the check raises only when every one of "
                            "them is False"
                            if op == "or"
                            else "True only when all of its parts are, so the check raises only when every "
                            "one of them holds"
                        )
                        + f" — join them with `{other}`: if {let['fixed']}",
                    }
                )
                return case
            # the kernel's own fix ("step through it with the tensor's strides") is not this case's: the input
            # must not reach the kernel at all (probe round 17a)
            inner = str(info.get("message") or "").split(" — ", 1)[0]
            case["diagnoses"].append(
                {
                    "kind": "validation",
                    "cause": "failed-in-kernel",
                    "error": info,
                    "message": "it failed inside the kernel instead of being rejected before the launch "
                    f"({inner})",
                }
            )
        else:
            problem = _refusal_problem(facts, list(refuse_with or []))
            if problem is None:
                case["passed"] = True
                case["raised"] = raised[:500]
            else:
                case["diagnoses"].append(
                    {
                        "kind": "validation",
                        **problem,
                        "why": reject.why,
                        "case_name": reject.name,
                        "message": f"the wrapper stopped with {problem['exception']}"
                        + (f" at line {problem['line']}" if problem["line"] else "")
                        + (
                            ": a bug in the check, not a refusal"
                            if problem["cause"] == "broken-check"
                            else f": refuse this input with {' or '.join(problem['expected_types'])}"
                        ),
                    }
                )
        return case
    why = reject.why.get("en") if isinstance(reject.why, dict) else reject.why
    case["diagnoses"].append(
        {
            "kind": "validation",
            "cause": "accepted",
            "why": reject.why,
            "case_name": reject.name,
            "message": f"the wrapper accepted input it must reject ({why or reject.name}): "
            "check it and raise an exception before launching",
        }
    )
    return case


_head = refit.head


def _builds_2d_tiles(source: str) -> bool:
    """The file's code broadcasts index vectors into 2D tiles (`[:, None]` / `[None, :]`); a comment or a
    docstring that shows one does not count (probe round 12). Text that does not parse: read as text."""
    import ast

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return "[:, None]" in source or "[None, :]" in source

    def whole(n: ast.AST) -> bool:
        return isinstance(n, ast.Slice) and n.lower is None and n.upper is None and n.step is None

    def none(n: ast.AST) -> bool:
        return isinstance(n, ast.Constant) and n.value is None

    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.slice, ast.Tuple)
            and len(node.slice.elts) == 2
        ):
            a, b = node.slice.elts
            if (whole(a) and none(b)) or (none(a) and whole(b)):
                return True
    return False


#: names through which a kernel's values can lose precision below float32 (`tl.dot` may run in TF32)
_LOSSY_NAMES = frozenset(
    {"float16", "bfloat16", "half", "dot", "dot_scaled", "float8e4nv", "float8e5", "float8e4b15"}
)


def _scaled_before_cast(path: str | None) -> tuple[int, str] | None:
    """(line, text) of `(tl.load(...) * c).to(tl.float32)`: a loaded value scaled before it is widened, so a
    16-bit input's product is rounded to 16 bits first."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "to"
        ):
            continue
        inner = node.func.value
        if not (isinstance(inner, ast.BinOp) and isinstance(inner.op, (ast.Mult, ast.Div))):
            continue
        loads = [
            side
            for side in (inner.left, inner.right)
            if isinstance(side, ast.Call) and ast.unparse(side.func) in ("tl.load", "triton.language.load")
        ]
        if loads and "float32" in ast.unparse(node):
            return node.lineno, ast.unparse(inner)[:80]
    return None


_NARROW_TYPES = _LOSSY_NAMES - {"half", "dot", "dot_scaled"}  # the narrow float types themselves


def _narrow_cast(path: str | None) -> dict | None:
    """Where the learner's kernel rounds to a 16-bit (or 8-bit) float on purpose: a `.to(tl.float16)` or
    `tl.cast(x, tl.bfloat16)` — the one such cast in the file, or the one a `tl.store` writes — as `line`,
    `cast` (its text) and `pointer` (the stored pointer's first name, when the cast is what a store writes).
    None when the file has no such cast or several and none inside a store (no guess)."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    stored: dict[int, str] = {}  # id of a value node a tl.store writes -> the pointer's first name
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and name_of(node.func) == "store" and len(node.args) >= 2:
            names = [n.id for n in ast.walk(node.args[0]) if isinstance(n, ast.Name)]
            for inner in ast.walk(node.args[1]):
                stored[id(inner)] = names[0] if names else ""
    sites = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        method = isinstance(node.func, ast.Attribute) and node.func.attr == "to" and node.args
        target = node.args[0] if method else None
        if name_of(node.func) == "cast" and len(node.args) >= 2:
            target = node.args[1]
        if target is not None and name_of(target) in _NARROW_TYPES:
            sites.append(node)
    inside = [n for n in sites if id(n) in stored]
    site = inside[0] if len(inside) == 1 else sites[0] if len(sites) == 1 else None
    if site is None:
        return None
    found = {"line": site.lineno, "cast": ast.unparse(site)[:80]}
    if stored.get(id(site)):
        found["pointer"] = stored[id(site)]
    return found


def _lossy_steps(path: str | None) -> bool:
    """The learner's file could round to 16 bits (or multiply in TF32) on its own: it names a 16- or 8-bit
    type, `.half()` or `tl.dot` outside a comparison (a dtype check names them too). True when the file cannot
    be read: then the 16-bit wording stands, as before this check."""
    import ast

    if not path:
        return True
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return True
    compared = {id(n) for c in ast.walk(tree) if isinstance(c, ast.Compare) for n in ast.walk(c)}
    for node in ast.walk(tree):
        name = name_of(node)
        if name in _LOSSY_NAMES and id(node) not in compared:
            return True
    return False


def _rounded16(got, expected) -> bool:
    """A float32/float64 output whose every finite value is a float16 (or bfloat16) number while the expected
    values are not all: the result went through a 16-bit type on the way."""
    if got.dtype not in (torch.float32, torch.float64) or got.shape != expected.shape or got.numel() < 1:
        return False
    g, e = got.detach().reshape(-1), expected.detach().to(got.device, got.dtype).reshape(-1)
    keep = torch.isfinite(g) & torch.isfinite(e)
    g, e = g[keep], e[keep]
    if g.numel() < 1:
        return False
    for half in (torch.float16, torch.bfloat16):
        if bool((g.to(half).to(g.dtype) == g).all()) and not bool((e.to(half).to(e.dtype) == e).all()):
            return True
    return False


def _names_in(node: ast.AST) -> set[str]:
    """Every name an expression or statement reads or binds."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _pid_load_in_row_loop(path: str) -> dict | None:
    """A load indexed by the program id inside a loop over rows that starts at it (`for row in range(pid, M,
    n_programs)`: `tl.load(rstd_ptr + pid)`): every row the program visits gets row pid's value. The load's
    pointer names a program-id name and neither the loop variable nor a name the loop body derives from it.
    {line, load, var, pid} of the first such load, or None."""
    tree = contracts.file_tree(path)
    if tree is None:
        return None
    pids = contracts.program_id_names(tree)

    def from_pid(node: ast.AST) -> bool:
        return bool(_names_in(node) & pids) or "program_id" in ast.unparse(node)

    starts = {  # `row = pid` before a while loop over rows
        a.targets[0].id
        for a in ast.walk(tree)
        if isinstance(a, ast.Assign)
        and len(a.targets) == 1
        and isinstance(a.targets[0], ast.Name)
        and from_pid(a.value)
    }
    for loop in ast.walk(tree):
        if (
            isinstance(loop, ast.For)
            and isinstance(loop.target, ast.Name)
            and isinstance(loop.iter, ast.Call)
            and ast.unparse(loop.iter.func) in ("range", "tl.range")
            and loop.iter.args
            and from_pid(loop.iter.args[0])
        ):
            var = loop.target.id
        elif isinstance(loop, ast.While):  # row = pid; while row < M: ...; row += n_programs
            stepped = [
                n.target.id
                for n in ast.walk(loop)
                if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name) and n.target.id in starts
            ]
            if not stepped or stepped[0] not in _names_in(loop.test):
                continue
            var = stepped[0]
        else:
            continue
        derived = {var}
        for node in ast.walk(loop):  # names the body computes from the loop variable (row_start = row * N)
            if isinstance(node, ast.Assign) and _names_in(node.value) & derived:
                derived |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        # memory the loop also stores to (the program's own partial row, read, added to, written back): a
        # per-program slot, rightly indexed by the program id
        stored = {
            ast.unparse(n.args[0])
            for n in ast.walk(loop)
            if isinstance(n, ast.Call) and ast.unparse(n.func) == "tl.store" and n.args
        }
        for node in ast.walk(loop):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) == "tl.load"
                and node.args
                and _names_in(node.args[0]) & pids
                and not _names_in(node.args[0]) & derived
                and ast.unparse(node.args[0]) not in stored
            ):
                pid = sorted(_names_in(node.args[0]) & pids)[0]
                return {"line": node.lineno, "load": ast.unparse(node)[:120], "var": var, "pid": pid}
    return None


def _local_index_compared(path: str) -> dict | None:
    """A comparison between a block-local index (`offs_m = tl.arange(0, BLOCK_M)`) and a position in the
    whole dimension (`cols = start_n + offs_n`, made from a loop variable or a program id), in a file that
    also makes the block-local index's own position (`q_rows = start_m * BLOCK_M + offs_m`) and did not use it
    there: a causal mask of query block 1 that compares rows 0..BLOCK_M-1 with keys 32.. (probe round 9).
    {line, local, position, instead, instead_line} of the first such comparison, or None."""
    tree = contracts.file_tree(path)
    if tree is None:
        return None
    moving = set(contracts.program_id_names(tree))
    moving |= {
        n.target.id for n in ast.walk(tree) if isinstance(n, ast.For) and isinstance(n.target, ast.Name)
    }

    assigns = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and len(n.targets) == 1]
    local = {
        a.targets[0].id
        for a in assigns
        if isinstance(a.targets[0], ast.Name)
        and isinstance(a.value, ast.Call)
        and ast.unparse(a.value.func) == "tl.arange"
        and a.value.args
        and ast.unparse(a.value.args[0]) == "0"
    }
    # positions: a block-local index shifted by something that moves (a program id, a loop variable)
    positions: dict[str, tuple[set[str], int]] = {}
    for a in assigns:
        if isinstance(a.targets[0], ast.Name) and _names_in(a.value) & local and _names_in(a.value) & moving:
            positions[a.targets[0].id] = (_names_in(a.value) & local, a.lineno)
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare) or len(node.comparators) != 1:
            continue
        sides = (_names_in(node.left), _names_in(node.comparators[0]))
        for mine, other in (sides, sides[::-1]):
            bare = mine & local
            where = other & set(positions)
            # the block-local side holds nothing else (`(q_start + rows)` is a position written inline)
            if (
                not bare
                or mine - local
                or not where
                or other & local - {n for p in where for n in positions[p][0]}
            ):
                continue
            index = sorted(bare)[0]
            instead = next((p for p, (made, _) in sorted(positions.items()) if index in made), None)
            if instead is None or instead in where:
                continue
            return {
                "line": node.lineno,
                "local": index,
                "position": sorted(where)[0],
                "instead": instead,
                "instead_line": positions[instead][1],
            }
    return None


#: facts a case pattern wrote on a diagnosis, dropped when a source rule names the cause in its place
_PATTERN_FACTS = {"loop-steps": ("param", "block", "rescale"), "variant-only": ("variant",)}
#: the same for the generic cause of an inf/NaN diagnosis (a rule open to those: `nan=True`)
_NAN_FACTS = {"nan-reduction": ("subtracts_max", "tiles")}


def _open_to_source_rule(cases: list, nan: bool = False) -> tuple[dict, dict] | tuple[None, None]:
    """(first failing plain case, its first diagnosis) when that diagnosis is a mismatch (with `nan`, or an
    inf/NaN) that nothing more specific than a case pattern (`loop-steps`, `variant-only`) or the generic
    `nan-reduction` explained; their facts are left for `_name_cause` to drop. (None, None) otherwise."""
    bad = next(
        (c for c in cases if c.get("kind") is None and not c.get("passed") and c.get("diagnoses")), None
    )
    if bad is None:
        return None, None
    diag = bad["diagnoses"][0]
    kinds: tuple[str, ...] = ("mismatch",)
    causes: tuple[str | None, ...] = (None, "all-wrong", *_PATTERN_FACTS)
    if nan:
        kinds, causes = (*kinds, "nan"), (*causes, *_NAN_FACTS)
    if diag.get("kind") not in kinds or diag.get("cause") not in causes:
        return None, None
    return bad, diag


def _name_cause(diag: dict, cause: str, facts: dict, message: str) -> None:
    old = diag.get("cause") or ""
    if isinstance(diag.get("rescale"), dict):  # its line was the rescale slip's
        diag.pop("line", None)
        diag.pop("rescale", None)
    for key in (*_PATTERN_FACTS.get(old, ()), *_NAN_FACTS.get(old, ())):
        diag.pop(key, None)
    diag.update(facts, cause=cause)
    diag["message"] = f"{_head(diag)}: {message}"


_EXP_NAMES = frozenset({"exp", "exp2"})


def _rescaled_after_add(path: str) -> dict | None:
    """An online softmax's running sum rescaled after the chunk's terms were added, in a loop:
    `l = (l + tl.sum(tl.exp(x - m_new))) * tl.exp(m - m_new)` shrinks the new terms by the factor meant for
    the old sum (on the first chunk, m = -inf, the factor is 0 and wipes them). {line, name, factor} of the
    first such assignment, or None."""
    tree = contracts.file_tree(path)
    if tree is None:
        return None

    def exp_call(n: ast.AST) -> bool:
        func = n.func if isinstance(n, ast.Call) else None
        return name_of(func) in _EXP_NAMES

    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        for node in ast.walk(loop):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
                continue
            target, value = node.targets[0], node.value
            if not (isinstance(target, ast.Name) and isinstance(value, ast.BinOp)):
                continue
            if not isinstance(value.op, ast.Mult):
                continue
            for summed, factor in ((value.left, value.right), (value.right, value.left)):
                if (
                    isinstance(summed, ast.BinOp)
                    and isinstance(summed.op, ast.Add)
                    and target.id in _names_in(summed)
                    and any(exp_call(n) for n in ast.walk(summed))
                    and exp_call(factor)
                    and isinstance(factor, ast.Call)
                    and factor.args
                    and isinstance(factor.args[0], ast.BinOp)
                    and isinstance(factor.args[0].op, ast.Sub)
                ):
                    return {"line": node.lineno, "name": target.id, "factor": ast.unparse(factor)[:80]}
    for loop in ast.walk(tree):
        if isinstance(loop, (ast.For, ast.While)):
            found = _rescaled_in_a_later_statement(loop, exp_call)
            if found is not None:
                return found
    return None


def _body_in_order(statements: list) -> list:
    """A loop body's statements in the order they run, `if`/`else` branches inlined, nested loops left out."""
    flat: list = []
    for node in statements:
        if isinstance(node, ast.If):
            flat += _body_in_order(node.body) + _body_in_order(node.orelse)
        elif not isinstance(node, (ast.For, ast.While, ast.FunctionDef)):
            flat.append(node)
    return flat


def _self_update(node: ast.AST, op: type) -> tuple[str, ast.AST] | None:
    """(name, the other operand) of a statement that updates a name by `op` (ast.Add, ast.Mult) with itself on
    one side: `acc += v`, `acc = acc + v`, `acc = v * acc`; else None."""
    if isinstance(node, ast.AugAssign) and isinstance(node.op, op) and isinstance(node.target, ast.Name):
        return node.target.id, node.value
    if not (
        isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
    ):
        return None
    name, value = node.targets[0].id, node.value
    if isinstance(value, ast.BinOp) and isinstance(value.op, op):
        for mine, other in ((value.left, value.right), (value.right, value.left)):
            if isinstance(mine, ast.Name) and mine.id == name:
                return name, other
    return None


def _rescaled_in_a_later_statement(loop: ast.AST, exp_call) -> dict | None:
    """The same slip in two statements of one loop body (an attention's key loop): the block's terms added to
    a running sum (`acc = tl.dot(p, v, acc)`, `acc += tl.dot(p, v)`, `acc = acc + ...`), then the sum
    multiplied by the old max's factor (`acc = acc * alpha[:, None]`, `acc *= alpha`), where the factor is an
    exp/exp2 of a difference or a name the loop assigns one to (`alpha = tl.exp2(m_i - m_new)`). {line, name,
    factor, added} of the multiplication, or None."""
    body = _body_in_order(getattr(loop, "body", []))

    def exp_of_difference(node: ast.AST) -> bool:  # tl.exp2(m_i - m_new)
        return (
            isinstance(node, ast.Call)
            and exp_call(node)
            and bool(node.args)
            and isinstance(node.args[0], ast.BinOp)
            and isinstance(node.args[0].op, ast.Sub)
        )

    factors = {
        t.id
        for n in body
        if isinstance(n, ast.Assign) and exp_of_difference(n.value)
        for t in n.targets
        if isinstance(t, ast.Name)
    }

    def is_factor(node: ast.AST) -> bool:
        base = node.value if isinstance(node, ast.Subscript) else node  # alpha[:, None]
        if isinstance(base, ast.Name):
            return base.id in factors
        return exp_of_difference(base)

    def added_to(node: ast.AST) -> tuple[str, str] | None:  # (name, what was added) of an accumulation
        grown = _self_update(node, ast.Add)
        if grown is not None:
            return grown[0], ast.unparse(grown[1])
        if not (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            return None
        name, value = node.targets[0].id, node.value
        if isinstance(value, ast.Call) and name_of(value.func) == "dot":
            acc = (
                value.args[2]
                if len(value.args) > 2
                else next((k.value for k in value.keywords if k.arg == "acc"), None)
            )
            if isinstance(acc, ast.Name) and acc.id == name:
                plain = ast.Call(
                    func=value.func,
                    args=value.args[:2],
                    keywords=[k for k in value.keywords if k.arg != "acc"],
                )
                return name, ast.unparse(plain)
        return None

    added: dict[str, str] = {}
    for node in body:
        scaled = _self_update(node, ast.Mult)
        if scaled is not None:
            name, factor = scaled
            if name in added and is_factor(factor):
                return {
                    "line": node.lineno,
                    "name": name,
                    "factor": ast.unparse(factor)[:80],
                    "added": added[name][:80],
                }
            added.pop(name, None)  # rescaled before this block's terms: the right order
            continue
        grown = added_to(node)
        if grown is not None:
            added.setdefault(grown[0], grown[1])
            continue
        for target in getattr(node, "targets", []):  # any other assignment starts the name afresh
            if isinstance(target, ast.Name):
                added.pop(target.id, None)
    return None


def _exp_of_difference(node: ast.AST) -> bool:
    """`tl.exp(...)`/`tl.exp2(...)` whose argument holds a subtraction (`tl.exp2(m_i - m_new)`,
    `tl.exp((m - m_new) * c)`)."""
    return (
        isinstance(node, ast.Call)
        and name_of(node.func) in _EXP_NAMES
        and bool(node.args)
        and any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) for n in ast.walk(node.args[0]))
    )


def _assigns(node: ast.AST, name: str) -> bool:
    if isinstance(node, ast.AugAssign):
        return isinstance(node.target, ast.Name) and node.target.id == name
    return isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == name for t in node.targets
    )


def _unrescaled_branch(loop: ast.AST) -> dict | None:
    """An accumulator updated in both branches of an `if` inside a loop (`if MASKED: ... else: ...`) where one
    branch multiplies it by the rescale factor (a name the loop assigns an exp/exp2 of a difference to, or
    such a call: `acc = acc * alpha[:, None]`, `l_i = l_i * alpha + ...`) and the other does not, nor does the
    loop outside the `if`: the other branch's update keeps the old max's scale (probe round 16c). {slip:
    "one-branch", line (the unrescaled update), name, factor, rescaled_line}, or None."""
    factors = {
        t.id
        for n in ast.walk(loop)
        if isinstance(n, ast.Assign) and _exp_of_difference(n.value)
        for t in n.targets
        if isinstance(t, ast.Name)
    }

    def is_factor(node: ast.AST) -> bool:
        base = node.value if isinstance(node, ast.Subscript) else node  # alpha[:, None]
        return (isinstance(base, ast.Name) and base.id in factors) or _exp_of_difference(base)

    def scaling(stmt: ast.AST, name: str) -> str | None:  # the factor `stmt` multiplies `name` by
        if not _assigns(stmt, name):
            return None
        if isinstance(stmt, ast.AugAssign):
            return (
                ast.unparse(stmt.value) if isinstance(stmt.op, ast.Mult) and is_factor(stmt.value) else None
            )
        for n in ast.walk(stmt.value) if isinstance(stmt, ast.Assign) else ():
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
                for mine, other in ((n.left, n.right), (n.right, n.left)):
                    if name in _names_in(mine) and is_factor(other):
                        return ast.unparse(other)
        return None

    def updates(stmt: ast.AST, name: str) -> bool:  # `name` assigned from itself
        return _assigns(stmt, name) and (
            isinstance(stmt, ast.AugAssign)
            or (isinstance(stmt, ast.Assign) and name in _names_in(stmt.value))
        )

    everywhere = _body_in_order(getattr(loop, "body", []))
    for branch in ast.walk(loop):
        if not (isinstance(branch, ast.If) and branch.body and branch.orelse):
            continue
        sides = (_body_in_order(branch.body), _body_in_order(branch.orelse))
        inside = {id(n) for side in sides for n in side}
        names = {t.id for n in sides[0] for t in ast.walk(n) if isinstance(t, ast.Name)}
        for name in sorted(names):
            if not all(any(updates(n, name) for n in side) for side in sides):
                continue
            scaled = [[(n, f) for n in side if (f := scaling(n, name)) is not None] for side in sides]
            outside = any(scaling(n, name) for n in everywhere if id(n) not in inside)
            if outside or bool(scaled[0]) == bool(scaled[1]):
                continue
            bare = sides[0] if not scaled[0] else sides[1]
            rescaled, factor = (scaled[0] or scaled[1])[0]
            update = next(n for n in bare if updates(n, name))
            return {
                "slip": "one-branch",
                "line": update.lineno,
                "name": name,
                "factor": factor[:80],
                "rescaled_line": rescaled.lineno,
            }
    return None


def _mixed_base(tree: ast.AST, loop: ast.AST) -> dict | None:
    """One loop taking both tl.exp and tl.exp2 of a bare difference with the same running max (a name the loop
    assigns a `tl.maximum` to): `s = s * tl.exp(m - m_new) + tl.exp2(x2 - m_new)` — one state in two bases.
    The odd one is the base the file's exp/exp2 calls of differences use less often; on a tie, the rescale
    (`m - m_new` where the loop assigns `m = m_new`). {slip: "mixed-base", line, base, arg, other, other_arg,
    other_line, running}, or None when the odd one cannot be told."""
    maxes = {
        t.id
        for n in ast.walk(loop)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and name_of(n.value.func) == "maximum"
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    olds = {  # m, where the loop has m = m_new
        t.id
        for n in ast.walk(loop)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Name) and n.value.id in maxes
        for t in n.targets
        if isinstance(t, ast.Name)
    }

    def bare_difference(call: ast.AST) -> ast.BinOp | None:
        if not (isinstance(call, ast.Call) and name_of(call.func) in _EXP_NAMES and call.args):
            return None
        arg = call.args[0]
        return arg if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Sub) else None

    def operand(node: ast.AST) -> str | None:
        base = node.value if isinstance(node, ast.Subscript) else node  # m_new[:, None]
        return base.id if isinstance(base, ast.Name) else None

    loop_calls = {id(n) for n in ast.walk(loop)}

    calls: dict[str, list[tuple[ast.Call, ast.BinOp]]] = {"exp": [], "exp2": []}
    uses = {"exp": 0, "exp2": 0}  # the file's exp/exp2 calls of differences, each base
    for call in ast.walk(tree):
        diff = bare_difference(call)
        if diff is None or not isinstance(call, ast.Call):
            continue
        base = name_of(call.func)
        uses[base] += 1
        if id(call) in loop_calls and {operand(diff.left), operand(diff.right)} & maxes:
            calls[base].append((call, diff))
    if not calls["exp"] or not calls["exp2"]:
        return None
    if uses["exp"] != uses["exp2"]:
        odd = min(uses, key=lambda b: uses[b])
    else:  # a tie: the rescale of the old max is the odd one, when only one base takes it
        rescales = {b for b, found in calls.items() for _, diff in found if operand(diff.left) in olds}
        if len(rescales) != 1:
            return None
        (odd,) = rescales
    other = "exp2" if odd == "exp" else "exp"
    (mine, diff), (theirs, _) = calls[odd][0], calls[other][0]
    running = next((r for r in (operand(diff.right), operand(diff.left)) if r in maxes), None)
    return {
        "slip": "mixed-base",
        "line": mine.lineno,
        "base": odd,
        "arg": ast.unparse(mine.args[0])[:60],
        "other": other,
        "other_arg": ast.unparse(theirs.args[0])[:60],
        "other_line": theirs.lineno,
        "running": running,
    }


def _bound_in(loop: ast.AST) -> set[str]:
    """Every name a loop binds anywhere inside it (assignments of any form, loop targets, `with ... as`,
    walrus), nested statements included."""
    bound: set[str] = set()
    for node in ast.walk(loop):
        targets: list = []
        if isinstance(node, ast.Assign):
            targets = list(node.targets)
        elif isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)):
            targets = [node.target]
        elif isinstance(node, ast.withitem) and node.optional_vars is not None:
            targets = [node.optional_vars]
        for target in targets:
            bound |= {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}
    return bound


def _operand_name(node: ast.AST) -> str | None:
    """The name a difference's operand reads: `m_new`, `m_new[:, None]`; None for anything else."""
    base = node.value if isinstance(node, ast.Subscript) else node
    return base.id if isinstance(base, ast.Name) else None


def _first_difference(node: ast.AST) -> ast.BinOp | None:
    """The outermost subtraction in an exp/exp2 argument: `x - m` in `(x - m) * LOG2_E`, or None."""
    return next((n for n in ast.walk(node) if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub)), None)


def _uncarried_max(loop: ast.AST) -> dict | None:
    """A running max the loop never carries: `m_new = tl.maximum(m_i, ...)` where the loop rescales by an
    exp/exp2 of a difference of m_i and m_new (`alpha = tl.exp2(m_i - m_new)`) but assigns m_i nowhere inside
    it (the `m_i = m_new` that ends the update is missing; probe round 17c). Every step then measures against
    the max the loop started with: from -inf the factor is 0 and each step drops what the earlier ones summed,
    and a step that masks a whole row takes -inf - (-inf) = NaN. {slip: "uncarried", line (the tl.maximum's),
    name, running, factor}, or None."""
    bound = _bound_in(loop)
    for node in ast.walk(loop):
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and name_of(node.value.func) == "maximum"
        ):
            continue
        running = node.targets[0].id
        for arg in node.value.args:
            old = _operand_name(arg)
            if old is None or old == running or old in bound:
                continue
            factor = next(
                (
                    n
                    for n in ast.walk(loop)
                    if isinstance(n, ast.Call)
                    and name_of(n.func) in _EXP_NAMES
                    and n.args
                    and (diff := _first_difference(n.args[0])) is not None
                    and {_operand_name(diff.left), _operand_name(diff.right)} == {old, running}
                ),
                None,
            )
            if factor is not None:
                return {
                    "slip": "uncarried",
                    "line": node.lineno,
                    "name": old,
                    "running": running,
                    "factor": ast.unparse(factor)[:80],
                }
    return None


def _terms_off_max(loop: ast.AST) -> dict | None:
    """A step's terms taken against another max than the one the running sum is rescaled to: `l = l *
    tl.exp2(m - m_new) + tl.sum(tl.exp2(x - m_chunk))` (probe round 17c), or the same over several statements
    (`p = tl.exp2(s - m_blk[:, None])`, `acc = acc * alpha[:, None]`, `acc = tl.dot(p, v, acc)`). The sum's
    factor is an exp/exp2 of `a - b` with b a name the loop assigns a `tl.maximum` to; every exp/exp2 of a
    difference in the added terms (through the names the loop assigned them to) subtracts one other name c,
    assigned earlier in the same step, neither b nor a (nor a plain copy of either): whenever c is below b
    the new terms are too large by exp(b - c). Terms that are brought to b (`... * tl.exp(m_chunk - m_new)`)
    hold a difference against b and are left alone. {slip: "terms-max", line (the terms' exp/exp2), name,
    terms, terms_max, running, factor, rescale_line}, or None."""
    maxes = {
        t.id
        for n in ast.walk(loop)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Call) and name_of(n.value.func) == "maximum"
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    if not maxes:
        return None
    defs: dict[str, ast.AST] = {}  # each name's latest value as the step runs

    def resolve(name: str | None) -> str | None:  # through plain copies: m = m_new
        for _ in range(8):
            value = defs.get(name) if name is not None else None
            if not isinstance(value, (ast.Name, ast.Subscript)) or _operand_name(value) is None:
                return name
            name = _operand_name(value)
        return name

    def exps(expr: ast.AST) -> list[ast.Call]:  # the exp/exp2 calls an expression reads, through names
        found: list[ast.Call] = []
        seen: set[str] = set()

        def visit(node: ast.AST, depth: int) -> None:
            if isinstance(node, ast.Call) and name_of(node.func) in _EXP_NAMES and node.args:
                found.append(node)
                return
            if isinstance(node, ast.Name) and node.id in defs and node.id not in seen and depth < 4:
                seen.add(node.id)
                visit(defs[node.id], depth + 1)
                return
            for child in ast.iter_child_nodes(node):
                visit(child, depth)

        visit(expr, 0)
        return found

    def difference(call: ast.Call) -> ast.BinOp | None:  # through a name: exp2(qk), qk = s - m[:, None]
        arg: ast.AST = call.args[0]
        if isinstance(arg, ast.Name) and arg.id in defs:
            arg = defs[arg.id]
        return _first_difference(arg)

    def rescale(name: str, factor: ast.AST, line: int) -> dict | None:  # a - b of the sum's factor
        calls = exps(factor)
        diffs = [d for c in calls if (d := difference(c)) is not None]
        if len(calls) != 1 or len(diffs) != 1:
            return None
        old, new = resolve(_operand_name(diffs[0].left)), resolve(_operand_name(diffs[0].right))
        if new not in maxes or old is None:
            return None
        return {"name": name, "old": old, "running": new, "factor": ast.unparse(factor)[:80], "line": line}

    def scaled_by(expr: ast.AST, name: str) -> ast.AST | None:  # F of `name * F` inside expr
        for n in ast.walk(expr):
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult):
                for mine, other in ((n.left, n.right), (n.right, n.left)):
                    if _operand_name(mine) == name and name not in _names_in(other):
                        return other
        return None

    def addends(expr: ast.AST) -> list[ast.AST]:
        if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
            return addends(expr.left) + addends(expr.right)
        return [expr]

    def check(state: dict | None, terms: list[ast.AST]) -> dict | None:
        if state is None or not terms:
            return None
        calls = [c for t in terms for c in exps(t)]
        against = [(c, _operand_name(d.right)) for c in calls if (d := difference(c)) is not None]
        if not calls or len(against) != len(calls):
            return None
        names = {resolve(n) for _, n in against}
        if len(names) != 1:
            return None
        (other,) = names
        if other is None or other not in defs or other in (state["running"], state["old"]):
            return None
        call = against[0][0]
        return {
            "slip": "terms-max",
            "line": call.lineno,
            "name": state["name"],
            "terms": ast.unparse(call)[:80],
            "terms_max": against[0][1],
            "running": state["running"],
            "factor": state["factor"],
            "rescale_line": state["line"],
        }

    scaled: dict[str, dict | None] = {}  # accumulators multiplied by a rescale factor in this step so far
    for node in _body_in_order(getattr(loop, "body", [])):
        if isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            name = node.target.id
            if isinstance(node.op, ast.Mult):
                scaled[name] = rescale(name, node.value, node.lineno)
            elif isinstance(node.op, ast.Add):
                found = check(scaled.get(name), [node.value])
                if found is not None:
                    return found
            defs.pop(name, None)
            continue
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            for target in getattr(node, "targets", []):
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        defs.pop(n.id, None)
                        scaled.pop(n.id, None)
            continue
        target, value = node.targets[0], node.value
        if not isinstance(target, ast.Name):
            for n in ast.walk(target):
                if isinstance(n, ast.Name):
                    defs.pop(n.id, None)
                    scaled.pop(n.id, None)
            continue
        name = target.id
        state = None
        if name in _names_in(value):
            parts = addends(value)
            mine = [p for p in parts if name in _names_in(p)]
            if len(mine) == 1:
                factor = scaled_by(mine[0], name)
                if factor is not None:  # l = l * alpha + ..., acc = acc * alpha[:, None]
                    state = rescale(name, factor, node.lineno)
                elif _operand_name(mine[0]) == name:  # l = l + ... after l = l * alpha
                    state = scaled.get(name)
                found = check(state, [p for p in parts if p is not mine[0]])
                if found is not None:
                    return found
            if isinstance(value, ast.Call) and name_of(value.func) == "dot":  # acc = tl.dot(p, v, acc)
                acc = (
                    value.args[2]
                    if len(value.args) > 2
                    else next((k.value for k in value.keywords if k.arg == "acc"), None)
                )
                if acc is not None and name in _names_in(acc):
                    factor = scaled_by(acc, name)
                    state = rescale(name, factor, node.lineno) if factor is not None else scaled.get(name)
                    found = check(state, list(value.args[:2]))
                    if found is not None:
                        return found
        scaled[name] = state
        defs[name] = value
    return None


def _lanes_unrescaled(loop: ast.AST, after: list) -> dict | None:
    """Per-lane running maxima and sums combined without bringing each lane's sum to the row max (probe round
    17b): the loop keeps a vector running max `m_lane` (`m_new = tl.maximum(m_lane, x)`, carried) and a sum
    rescaled by an exp/exp2 of their difference, to which it adds exp/exp2 terms of `x - m_new`; in the
    straight-line code after the loop the file reduces that max across the lanes (`m = tl.max(m_lane,
    axis=0)`: so the maxima differ per lane) and takes tl.sum of the lane sums as they are (`tl.sum(s_lane,
    axis=0)`, the sum and its max not reassigned after the loop): each lane's sum stays relative to its own
    max.
    {slip: "lanes-unrescaled", line (the tl.sum's statement), name, lane_max, row_max, text}, or None."""
    copies = {  # m_lane = m_new: the loop carries m_new to the next step
        (n.targets[0].id, n.value.id)
        for n in ast.walk(loop)
        if isinstance(n, ast.Assign)
        and len(n.targets) == 1
        and isinstance(n.targets[0], ast.Name)
        and isinstance(n.value, ast.Name)
    }
    lane_maxes: dict[str, str] = {}  # carried running max -> the name the loop assigns tl.maximum to
    for node in ast.walk(loop):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and name_of(node.value.func) == "maximum"
        ):
            new = node.targets[0].id
            for arg in node.value.args:
                old = _operand_name(arg)
                if old is not None and old != new and (old, new) in copies:
                    lane_maxes[old] = new
    if not lane_maxes:
        return None

    def rescales(node: ast.AST, old: str, new: str) -> bool:  # an exp/exp2 of a difference of old and new
        return any(
            isinstance(n, ast.Call)
            and name_of(n.func) in _EXP_NAMES
            and n.args
            and (diff := _first_difference(n.args[0])) is not None
            and {_operand_name(diff.left), _operand_name(diff.right)} == {old, new}
            for n in ast.walk(node)
        )

    def exponentials(node: ast.AST, old: str, new: str) -> bool:  # exp/exp2 of `x - new`, x not the old max
        return any(
            isinstance(n, ast.Call)
            and name_of(n.func) in _EXP_NAMES
            and n.args
            and (diff := _first_difference(n.args[0])) is not None
            and _operand_name(diff.right) == new
            and _operand_name(diff.left) != old
            for n in ast.walk(node)
        )

    sums: dict[str, str] = {}  # an accumulator of exponentials -> its lane max
    for old, new in lane_maxes.items():
        assigns = [
            n
            for n in ast.walk(loop)
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name)
        ]
        factors = {n.targets[0].id for n in assigns if rescales(n.value, old, new)}  # type: ignore[attr-defined]
        terms = {n.targets[0].id for n in assigns if exponentials(n.value, old, new)}  # type: ignore[attr-defined]
        rescaled, added = set(), set()
        for n in assigns:
            name = n.targets[0].id  # type: ignore[attr-defined]
            reads = _names_in(n.value)
            if name not in reads or name == old:
                continue
            if factors & reads or rescales(n.value, old, new):
                rescaled.add(name)
            if (terms - {name}) & reads or exponentials(n.value, old, new):
                added.add(name)
        for name in rescaled & added:
            sums[name] = old
    if not sums:
        return None
    defs: dict[str, ast.AST] = {}
    row_max: dict[str, str] = {}  # lane max -> the name its cross-lane tl.max went to
    pending: list[tuple[ast.stmt, str, str]] = []  # (statement, lane sum, its lane max) summed as they are
    for stmt in after:
        if isinstance(stmt, (ast.For, ast.While, ast.If, ast.FunctionDef, ast.Return)):
            break  # the combine is the straight-line code right after the loop
        for call in ast.walk(stmt):
            if not (isinstance(call, ast.Call) and name_of(call.func) == "sum" and call.args):
                continue
            arg = call.args[0]
            name = _operand_name(arg) if isinstance(arg, (ast.Name, ast.Subscript)) else None
            if name is None or name not in sums or name in defs or sums[name] in defs:
                continue  # not a lane sum, or the sum or its max reassigned (rescaled) after the loop
            pending.append((stmt, name, sums[name]))
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            target, value = stmt.targets[0].id, stmt.value
            if (
                isinstance(value, ast.Call)
                and name_of(value.func) == "max"
                and value.args
                and isinstance(value.args[0], ast.Name)
                and value.args[0].id in lane_maxes
            ):
                row_max[value.args[0].id] = target
            defs[target] = value
        else:
            for stored in ast.walk(stmt):
                if isinstance(stored, ast.Name) and isinstance(stored.ctx, ast.Store):
                    defs[stored.id] = stmt
    for stmt, name, lane in pending:
        if lane in row_max:  # the max reduced across the lanes, before or after the sum
            return {
                "slip": "lanes-unrescaled",
                "line": stmt.lineno,
                "name": name,
                "lane_max": lane,
                "row_max": row_max[lane],
                "text": ast.unparse(stmt)[:80],
            }
    return None


def _rescale_slip(path: str | None) -> dict | None:
    """In the learner's loops: an accumulator rescaled in one branch of an `if` only (`_unrescaled_branch`),
    a running max's differences taken in two bases (`_mixed_base`), a running max never carried to the next
    step (`_uncarried_max`), or a step's terms taken against another max than the sum's rescale
    (`_terms_off_max`): the first found, or None."""
    tree = contracts.file_tree(path) if path else None
    if tree is None:
        return None
    for loop in ast.walk(tree):
        if isinstance(loop, (ast.For, ast.While)):
            found = (
                _unrescaled_branch(loop)
                or _mixed_base(tree, loop)
                or _uncarried_max(loop)
                or _terms_off_max(loop)
            )
            if found is not None:
                return found
    for node in ast.walk(tree):  # a loop followed by the combine of what it carried per lane
        body = getattr(node, "body", None)
        if not isinstance(body, list):
            continue
        for i, loop in enumerate(body):
            if isinstance(loop, (ast.For, ast.While)):
                found = _lanes_unrescaled(loop, body[i + 1 :])
                if found is not None:
                    return found
    return None


def _loop_steps_slip(first: dict, bad: list, loop_steps, learner_file: str | None) -> None:
    """A `loop-steps` verdict on `first` (the first failing case's diagnosis): when the learner's loop has a
    rescale slip (`_rescale_slip`), its line and `rescale` facts go on it, and on every other failing case
    whose loop takes several steps and whose first diagnosis is a mismatch with no cause but `all-wrong` or
    `size-threshold` and no line (the same slip, vaguer there: a random case whose loop ran once passes, and
    the size threshold then reads the symptom on the longer cases). A running max never carried also takes
    the inf/NaN of such a case that nothing named (a step that masks a whole row computes -inf - (-inf))."""
    found = _rescale_slip(learner_file)
    if found is None:
        return
    line = found.pop("line")
    for case in bad:
        diag = case["diagnoses"][0]
        vague = diag.get("kind") == "mismatch" and diag.get("cause") in (None, "all-wrong", "size-threshold")
        nan = (
            found["slip"] == "uncarried"
            and diag.get("kind") == "nan"
            and diag.get("cause") in (None, *_NAN_FACTS)
        )
        if diag is not first and not (
            (vague or nan) and not diag.get("line") and (loop_steps(case) or 0) > 1
        ):
            continue
        for key in _NAN_FACTS.get(diag.get("cause") or "", ()):
            diag.pop(key, None)
        diag.update(cause="loop-steps", param=first["param"], block=first["block"], line=line, rescale=found)
        words = _loop_slip_words(first["param"], first["block"], line, found, nan=diag.get("kind") == "nan")
        diag["message"] = f"{_head(diag)}: {words}"


def _rescale_slip_words(line: int, found: dict, nan: bool = False) -> str:
    """The engine's English for a rescale slip (`_rescale_slip`) at `line`; the lab's sentences in both
    languages are `present.diagnoses`'s."""
    if found["slip"] == "uncarried":
        name, running, factor = found["name"], found["running"], found["factor"]
        said = (
            f"line {line} computes the new running max {running} from {name}, but the loop never sets {name} "
            f"to it: every step rescales by {factor} against the max the loop started with, not the "
            "previous step's (from -inf the factor is 0), so each step drops or misweights what the earlier "
            "steps added"
        )
        if nan:
            said += (
                f"; where a step masks a whole row, {running} is still -inf there and -inf - (-inf) is NaN"
            )
        return f"{said} — end the update with {name} = {running}"
    if found["slip"] == "one-branch":
        return (
            f"line {line} updates {found['name']} without rescaling it by {found['factor']}, as line "
            f"{found['rescaled_line']} does in the other branch of the if — whenever this branch runs after "
            f"the max grew, {found['name']} keeps terms scaled to the old max: rescale it in both branches"
        )
    if found["slip"] == "mixed-base":
        where = "the same line" if found["other_line"] == line else f"line {found['other_line']}"
        return (
            f"line {line} takes tl.{found['base']}({found['arg']}), while {where} takes "
            f"tl.{found['other']}({found['other_arg']}) of the same running max — one state in two bases, so "
            "the rescaled sum and the new terms disagree: use one exponential for both (exp2 where the "
            "values are in base-2 units)"
        )
    if found["slip"] == "terms-max":
        name, running, other = found["name"], found["running"], found["terms_max"]
        at = "the same line" if found["rescale_line"] == line else f"line {found['rescale_line']}"
        return (
            f"line {line} takes this step's terms as {found['terms']}, against {other}, while {at} rescales "
            f"the old {name} to {running} ({found['factor']}) — whenever {other} is below {running} the new "
            f"terms are too large by the exponential of {running} - {other}: take the terms against {running}"
        )
    if found["slip"] == "lanes-unrescaled":
        name, lane, row = found["name"], found["lane_max"], found["row_max"]
        return (
            f"line {line} ({found['text']}) adds the lanes' sums {name} as they are, but each lane's sum is "
            f"relative to its own running max {lane}, not to the row's max {row} — bring each to the row max "
            f"first: tl.sum({name} * tl.exp({lane} - {row}))"
        )
    raise ValueError(found["slip"])


def _loop_slip_words(param: str, block: str, line: int, found: dict, nan: bool = False) -> str:
    said = f"every case whose loop takes one step ({param} ≤ {block}) passes and every failing case takes "
    return f"{said}several: {_rescale_slip_words(line, found, nan)}"


def _rescale_after_add_cause(cases: list, learner_file: str) -> None:
    """The first failing case's wrong or non-finite values, when no more specific cause named them and the
    file rescales a running sum after adding the chunk (`_rescaled_after_add`): cause `rescale-after-add`."""
    _, diag = _open_to_source_rule(cases, nan=True)
    if diag is None:  # one block only (an attention of one key): the factor 0 left every value 0
        bad = next(
            (c for c in cases if c.get("kind") is None and not c.get("passed") and c.get("diagnoses")), None
        )
        first = bad["diagnoses"][0] if bad is not None else {}
        if (
            first.get("kind") == "mismatch"
            and first.get("cause") == "computed-zero"
            and not first.get("loop_line")
        ):
            diag = first
    found = _rescaled_after_add(learner_file) if diag is not None else None
    if diag is None or found is None:
        return
    added = found.get("added") or "sum(...)"
    _name_cause(
        diag,
        "rescale-after-add",
        found,
        f"line {found['line']} multiplies {found['name']} by {found['factor']} after this chunk's terms "
        "were added, so the new terms shrink too (on the first chunk the running max is -inf and the factor "
        f"is 0); rescale the old sum first, then add the chunk: {found['name']} = {found['name']} * "
        f"{found['factor']} + {added}",
    )


_LOG2_NAME = re.compile(r"log_?2|ln_?2", re.IGNORECASE)


def _exp2_without_log2e(path: str) -> dict | None:
    """The first `tl.exp2(...)` of a file in which nothing carries log2(e): no constant near log2(e) or ln 2
    (or twice or half of one), no name or attribute spelling log2/ln2 (`LOG2_E`, `NEG_LOG2_E`, `tl.log2`), no
    `math.e`, no `math.log(...)` — so exp2(t) is 2^t where the exercise's exponential is e^t (probe round 16c:
    a sigmoid as 1 / (1 + exp2(-a))). {line, call}, or None. A file that folds log2(e) anywhere (a qk_scale
    computed in the wrapper, x scaled as it is loaded) is left alone."""
    tree = contracts.file_tree(path)
    if tree is None:
        return None
    first = None
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and type(node.value) is float and node.value:
            size = abs(node.value)
            if any(
                abs(size / (k * c) - 1) < 1e-3
                for k in (0.5, 1.0, 2.0)
                for c in (refit.LOG2_E, 1 / refit.LOG2_E)
            ):
                return None
        elif _spells_log2(node):
            return None
        elif (
            isinstance(node, ast.Call)
            and name_of(node.func) == "exp2"
            and node.args
            and (first is None or (node.lineno, node.col_offset) < (first.lineno, first.col_offset))
        ):
            first = node
    if first is None:
        return None
    return {"line": first.lineno, "call": ast.unparse(first)[:80]}


def _spells_log2(node: ast.AST) -> bool:
    """A name or attribute spelling log2/ln2 (`LOG2_E`, `tl.log2`), `math.e`, or a `log(...)` call."""
    if isinstance(node, ast.Name):
        return bool(_LOG2_NAME.search(node.id))
    if isinstance(node, ast.Attribute):
        return bool(_LOG2_NAME.search(node.attr)) or (node.attr == "e" and name_of(node.value) == "math")
    return isinstance(node, ast.Call) and name_of(node.func) == "log"


def _exp2_cause(cases: list, learner_file: str) -> None:
    """The first failing case's wrong values, when no cause but `all-wrong` named them and the file takes exp2
    with no log2(e) anywhere (`_exp2_without_log2e`): cause `exp2-without-log2e` with that line."""
    _, diag = _open_to_source_rule(cases)
    if diag is None or diag.get("cause") not in (None, "all-wrong") or diag.get("line"):
        return
    found = _exp2_without_log2e(learner_file)
    if found is None:
        return
    _name_cause(
        diag,
        "exp2-without-log2e",
        found,
        f"line {found['line']} takes {found['call']}, and nothing in your file multiplies by log2(e): "
        "exp2(t) is 2^t, not e^t — write tl.exp(t), or tl.exp2(t * 1.4426950408889634) (exp(t) = "
        "exp2(t · log2(e)))",
    )


def _local_index_cause(cases: list, learner_file: str) -> None:
    """The first failing case's wrong values, when nothing more specific than a case pattern named their cause
    and the file compares a block-local index with a position (`_local_index_compared`): cause
    `local-index` with that line."""
    _, diag = _open_to_source_rule(cases)
    found = _local_index_compared(learner_file) if diag is not None else None
    if diag is None or found is None:
        return
    _name_cause(
        diag,
        "local-index",
        found,
        f"line {found['line']} compares {found['local']} (an index inside the block, 0, 1, 2, …) with "
        f"{found['position']} (positions in the whole sequence) — right in the first block only; use "
        f"{found['instead']} (line {found['instead_line']}), the same index's position in the sequence",
    )


def _split_at_block_start(path: str, tile: str, block: str) -> tuple[int, str] | None:
    """(line, name) of `name = <program id> * tile` (the causal split `full_end = start_m * BLOCK_M`) in the
    learner's file, or None; not when another assignment rounds `name` to the loop's `block` (`full_end =
    q_start // BLOCK_N * BLOCK_N`: the split is that one, and right)."""
    tree = contracts.file_tree(path)
    if tree is None:
        return None
    pids = contracts.program_id_names(tree)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.BinOp)
            and isinstance(node.value.op, ast.Mult)
        ):
            sides = {ast.unparse(node.value.left), ast.unparse(node.value.right)}
            name = node.targets[0].id
            rounded = any(  # `name // block * block` somewhere (a call passing both is no rounding)
                isinstance(other, ast.Assign)
                and other is not node
                and isinstance(other.value, ast.BinOp)
                and any(isinstance(n, ast.FloorDiv) for n in ast.walk(other.value))
                and {name, block} <= _names_in(other.value)
                for other in ast.walk(tree)
            )
            if tile in sides and (sides - {tile}) & (pids | {"tl.program_id(0)"}) and not rounded:
                return node.lineno, name
    return None


def _split_not_multiple(cases: list, exercise, learner_file: str) -> None:
    """Contract `loop = [param, block]` in a kernel that splits its loop at the start of its own tile (a
    causal attention's unmasked keys end at `start_m * BLOCK_M`): when the launch's tile is not a multiple of
    `block`, the unmasked loop's last whole block runs past the split, so rows see keys the mask should hide
    (probe round 9: BLOCK_M = 16 queries, BLOCK_N = 32 keys). Cause `split-not-multiple` on the first failing
    case's diagnosis, in place of a case pattern (`variant-only`, `loop-steps`)."""
    loop = (exercise.verify.contracts or {}).get("loop") or []
    bad, diag = _open_to_source_rule(cases) if len(loop) == 2 else (None, None)
    if bad is None or diag is None:
        return
    meta = bad.get("meta") or {}
    block = meta.get(loop[1])
    if not isinstance(block, int) or block <= 0:
        return
    for tile, size in sorted(meta.items()):
        if tile == loop[1] or not isinstance(size, int) or size <= 0 or size % block == 0:
            continue
        found = _split_at_block_start(learner_file, tile, loop[1])
        if found is None:
            continue
        line, name = found
        facts = {"line": line, "name": name, "tile": tile, "tile_value": size, "block": loop[1]}
        _name_cause(
            diag,
            "split-not-multiple",
            dict(facts, block_value=block),
            f"line {line} splits the loop at {name} = a multiple of {tile} ({size}), but the loop steps "
            f"by {loop[1]} = {block}, which {size} is not a multiple of: the last whole block before {name} "
            f"runs past it, into what the masked part should handle — make {tile} a multiple of {loop[1]}, "
            f"or round {name} down to a multiple of {loop[1]}",
        )
        return


def _pid_in_row_loop(cases: list, learner_file: str) -> None:
    """The first failing case's wrong values, when nothing else named their cause, and the file loads by the
    program id inside its loop over rows (`_pid_load_in_row_loop`): cause `pid-in-row-loop` on that diagnosis
    (gradient mode: on the first such output)."""
    bad = next(
        (c for c in cases if c.get("kind") is None and not c.get("passed") and c.get("diagnoses")), None
    )
    if bad is None:
        return
    diag = next(
        (
            d
            for d in bad["diagnoses"]
            if d.get("kind") == "mismatch"
            and d.get("cause") in (None, "all-wrong")
            and not d.get("near_miss")
        ),
        None,
    )
    if diag is None:
        return
    found = _pid_load_in_row_loop(learner_file)
    if found is None:
        return
    _name_cause(
        diag,
        "pid-in-row-loop",
        found,
        f"line {found['line']} loads `{found['load']}` inside the loop over {found['var']}, indexed by the "
        f"program id {found['pid']} — every {found['var']} this program visits gets the value of "
        f"{found['var']} {found['pid']}: index it by {found['var']}",
    )


def _reduction_without_axis(path: str) -> tuple[int, str] | None:
    """The first `tl.sum(x)` / `tl.max(x)` / `tl.min(x)` without an axis in a file whose kernels build 2D
    tiles (`[:, None]`): on a tile it reduces everything to one value. (line, call text) or None."""
    import ast

    try:
        source = Path(path).read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    if not _builds_2d_tiles(source):
        return None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("sum", "max", "min")
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "tl"
            and len(node.args) == 1
            and not any(k.arg == "axis" for k in node.keywords)
        ):
            return node.lineno, ast.get_source_segment(source, node) or f"tl.{node.func.attr}(...)"
    return None


def _grid_over(
    error: dict, launches: list, exercise, inputs: dict, params: dict, kwargs: dict, learner_file: str | None
) -> None:
    """An out-of-bounds access in a program whose id is at or past the number of tiles: a 1-D grid launched
    more programs than the output has BLOCK_M x BLOCK_N tiles (of the launch's own meta), and one of the
    extra programs — it has no tile — ran past a tensor (a grouped order past its last group reads at
    negative offsets). The grid is the cause, not the access's mask: the error gets `grid_over` {programs,
    tiles, blocks, shape, program, grid_line} and the grid's line. Never for a persistent kernel (contract
    `store_once`, or a loop starting at the program id): there programs past the tiles are on purpose."""
    detail = error.get("detail")
    if error.get("kind") != Kind.OOB or not isinstance(detail, dict) or error.get("cause"):
        return
    if not same_file(detail.get("file"), learner_file) or (exercise.verify.contracts or {}).get("store_once"):
        return
    pid, grid = detail.get("program_id"), detail.get("grid")
    if not (isinstance(pid, list) and isinstance(grid, list) and len(pid) == 3 and len(grid) == 3):
        return
    if any(int(g) != 1 for g in grid[1:]) or not isinstance(pid[0], int):
        return  # a 2-D grid: programs past the tiles along one axis are a swapped or missing axis
    launch = next(
        (
            x
            for x in reversed(launches)
            if x.get("kernel") == detail.get("kernel") and (x.get("grid") or [])[:1] == grid[:1]
        ),
        None,
    )
    blocks = contracts.tile_of(launch.get("meta") or {}) if launch is not None else None
    if blocks is None or _tile_loop(learner_file):
        return
    over = (exercise.verify.contracts or {}).get("tiles_over")
    tiled = dict(inputs).get(over) if over else None
    if not isinstance(tiled, torch.Tensor):
        try:
            expected = exercise_env.reference(exercise, dict(inputs), params, kwargs)
        except Exception:  # noqa: BLE001 - no reference here: no claim
            return
        tiled = expected[0] if isinstance(expected, (tuple, list)) and expected else expected
    if not isinstance(tiled, torch.Tensor) or tiled.dim() != 2:
        return
    rows, cols = (int(d) for d in tiled.shape)
    tiles = -(-rows // blocks[0]) * -(-cols // blocks[1])
    programs = int(grid[0])
    if not tiles < programs or pid[0] < tiles:
        return
    line = contracts.grid_line(learner_file, detail.get("kernel"))
    facts = {
        "programs": programs,
        "tiles": tiles,
        "blocks": list(blocks),
        "shape": [rows, cols],
        "program": pid[0],
        "access_line": error.get("line"),
        "grid_line": line,
    }
    detail["grid_over"] = facts
    error["cause"] = "grid-over"
    if line:
        error["line"] = line
    where = f" (line {line})" if line else ""
    verb = "stored to" if detail.get("access") == "store" else "loaded from"
    error["message"] = detail["message"] = (
        f"the grid launched {programs} programs for {tiles} tiles ({blocks[0]} x {blocks[1]} tiles of the "
        f"{rows} x {cols} output): programs {tiles}–{programs - 1} have no tile, and program {pid[0]} "
        f"{verb} {detail.get('arg') or 'memory'} out of bounds at line {facts['access_line']} — launch one "
        f"program per tile of the launch's own config: triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)"
        f"{where}"
    )


def _tile_loop(path: str | None) -> bool:
    """Whether the learner's file has a for loop whose range starts at a program id (`for tile_id in
    range(pid, num_tiles, NUM_SMS)`): a persistent kernel, which may launch programs that get no tile."""
    tree = _learner_tree(path)
    if tree is None:
        return False
    pids = contracts.program_id_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call) and node.iter.args:
            start = node.iter.args[0] if len(node.iter.args) >= 2 else None
            if start is not None and (
                "program_id" in ast.unparse(start)
                or any(isinstance(n, ast.Name) and n.id in pids for n in ast.walk(start))
            ):
                return True
    return False


def _block_not_pow2(error: dict, launches: list, learner_file: str | None = None) -> None:
    """ "arange's range must be a power of 2" points at tl.arange; the value came from the wrapper: name "
    "it. A value that one of the file's own `triton.Config`s holds came from that config: on a GPU the
    autotuner compiles every config itself (the interpreter's pinned autotune names it the same way,
    contracts.explain_config_error)."""
    if error.get("kind") != "compile" or "power of 2" not in str(error.get("message", "")):
        return
    for launch in launches:
        for name, value in (launch.get("meta") or {}).items():
            if isinstance(value, int) and value > 0 and value & (value - 1):
                config = contracts.config_holding(learner_file, name, value)
                if config is not None and not error.get("cause"):
                    contracts.explain_config_error({"@config": config}, error, learner_file)
                    if error.get("cause") == "config-not-pow2":
                        return
                error.update(block_name=name, block_value=value)
                error["message"] = (
                    f"{error['message']} ({name} was {value} at this launch: the wrapper passed a size "
                    "that is not "
                    "a power of 2 — use triton.next_power_of_2 or a fixed block and a mask)"
                )
                return


_EXP_CALL = re.compile(r"\b(?:tl\.(?:math\.)?exp2?|libdevice\.exp2?|tl\.softmax)\s*\(")


def _uses_exp(learner_file: str | None) -> bool:
    """The learner's file calls exp/exp2 (a softmax-like kernel) — unknown files count as such."""
    if not learner_file:
        return True
    try:
        return bool(_EXP_CALL.search(Path(learner_file).read_text(encoding="utf-8", errors="replace")))
    except OSError:
        return True


_MAX_NAMES = frozenset({"max", "maximum"})


def _unshifted_exp(path: str | None) -> dict | None:
    """The first exp/exp2 of the learner's @triton.jit functions whose argument subtracts nothing: no `a - b`
    with b not a constant in it, nor in what its names hold where it runs (followed through the assignments
    that reach it: the branches of an `if` apart, a loop's body twice; `x -= m` shifts x). A name with no
    assignment there (a parameter), a call of the file's own helper or any other form counts as shifted (no
    claim); a tl.load is raw data whatever its address. {line, call} or None. One branch of a kernel that
    subtracts the max (`if ROWS == 1: tl.exp(row)` beside `tl.exp(x - row_max[:, None])`) is found here,
    where a search of the whole file for a max is not (probe round 17b)."""
    tree = contracts.file_tree(path) if path else None
    if tree is None:
        return None
    modules = {"tl", "triton", "math", "libdevice", "torch", "np"}
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules.update((a.asname or a.name).split(".")[0] for a in node.names)

    def constant(node: ast.AST) -> bool:
        if isinstance(node, ast.UnaryOp):
            return constant(node.operand)
        return isinstance(node, ast.Constant)

    def shifted(node: ast.AST, env: dict[str, bool]) -> bool:
        if isinstance(node, ast.Constant):
            return False
        if isinstance(node, ast.Name):
            return False if node.id in modules else env.get(node.id, True)
        if isinstance(node, ast.Attribute):
            return shifted(node.value, env)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Sub) and not constant(node.right):
                return True
            return shifted(node.left, env) or shifted(node.right, env)
        if isinstance(node, ast.UnaryOp):
            return shifted(node.operand, env)
        if isinstance(node, ast.Subscript):
            return shifted(node.value, env)
        if isinstance(node, ast.IfExp):
            return shifted(node.body, env) or shifted(node.orelse, env)
        if isinstance(node, (ast.Tuple, ast.List)):
            return any(shifted(e, env) for e in node.elts)
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name):
                return True  # the file's own helper (or a builtin): unknown
            if name_of(node.func) == "load":
                return False
            values = [*node.args, *(k.value for k in node.keywords)]
            return shifted(node.func, env) or any(shifted(v, env) for v in values)
        return True

    found: list[tuple[int, str]] = []

    def look(node: ast.AST, env: dict[str, bool]) -> None:
        for call in ast.walk(node):
            if not (isinstance(call, ast.Call) and name_of(call.func) in _EXP_NAMES and call.args):
                continue
            if not shifted(call.args[0], env):
                found.append((call.lineno, ast.unparse(call)[:80]))

    def merge(a: dict[str, bool], b: dict[str, bool]) -> dict[str, bool]:
        return {k: a.get(k, True) or b.get(k, True) for k in a.keys() | b.keys()}

    def run(body: list, env: dict[str, bool]) -> dict[str, bool]:
        for stmt in body:
            if isinstance(stmt, ast.If):
                look(stmt.test, env)
                env = merge(run(stmt.body, dict(env)), run(stmt.orelse, dict(env)))
            elif isinstance(stmt, (ast.For, ast.While)):
                head = stmt.iter if isinstance(stmt, ast.For) else stmt.test
                look(head, env)
                if isinstance(stmt, ast.For):
                    for n in ast.walk(stmt.target):
                        if isinstance(n, ast.Name):
                            env[n.id] = True
                once = run(stmt.body, dict(env))
                env = merge(env, run(stmt.body, merge(env, once)))
                env = run(stmt.orelse, env)
            elif isinstance(stmt, (ast.With, ast.Try)):
                env = run(list(getattr(stmt, "body", [])), env)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                if stmt.value is None:
                    continue
                look(stmt.value, env)
                value = shifted(stmt.value, env)
                if isinstance(stmt, ast.AugAssign):
                    value = value or (isinstance(stmt.op, ast.Sub) and not constant(stmt.value))
                    if isinstance(stmt.target, ast.Name):
                        value = value or env.get(stmt.target.id, True)
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                for target in targets:
                    for n in ast.walk(target):
                        if isinstance(n, ast.Name):
                            env[n.id] = value
            elif not isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
                look(stmt, env)
        return env

    for fn in _jit_functions(tree):
        run(fn.body, {})
    if not found:
        return None
    line, call = min(found)
    return {"line": line, "call": call}


def _unshifted_exp_words(bare: dict, top: float) -> str:
    over = (
        f"exp overflows to inf above ~88.7 (these rows reach {top:.4g}) and inf / inf is NaN"
        if top >= 0
        else f"exp underflows to 0 below about -103 (these rows' max is {top:.4g}) and 0 / 0 is NaN"
    )
    return (
        f"line {bare['line']} takes {bare['call']} with no max subtracted inside it (the max the file takes "
        f"elsewhere does not reach this exp) — {over}: subtract the row max there too, exp(x - max)"
    )


def _max_after_exp(path: str | None) -> dict | None:
    """A row max taken, then its exponential divided (or multiplied) out after the row's own exp:
    `tl.exp(row) / tl.exp(row_max)`, `tl.exp(row) * tl.exp(-row_max)`. Mathematically softmax is shift
    invariant, but exp(row) overflows before the max comes out. Only when no exp/exp2 call of the file
    subtracts that max inside its argument. {line (the statement's), name (the max), call (the exp of the
    row)} of the first such expression, or None."""
    tree = contracts.file_tree(path) if path else None
    if tree is None:
        return None
    maxes: set[str] = set()
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and name_of(node.value.func) in _MAX_NAMES
        ):
            maxes.add(node.targets[0].id)
    if not maxes:
        return None

    def exps(n: ast.AST) -> list[ast.Call]:
        return [
            c for c in ast.walk(n) if isinstance(c, ast.Call) and name_of(c.func) in _EXP_NAMES and c.args
        ]

    def alone(arg: ast.AST) -> str | None:  # exp(m), exp(-m), exp2(m * LOG2E): the max by itself
        for _ in range(3):
            if isinstance(arg, ast.UnaryOp) and isinstance(arg.op, ast.USub):
                arg = arg.operand
            elif isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Mult):
                sides = [a for a in (arg.left, arg.right) if _names_in(a) & maxes]
                other = arg.right if sides and sides[0] is arg.left else arg.left
                # the other factor a constant (1.4427, LOG2E): exp2(m * LOG2E) is still the max alone
                if len(sides) != 1 or exps(arg) or not all(n.isupper() for n in _names_in(other)):
                    break
                arg = sides[0]
        return arg.id if isinstance(arg, ast.Name) and arg.id in maxes else None

    subtracted = {
        n.right.id
        for call in exps(tree)
        for n in ast.walk(call.args[0])
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) and isinstance(n.right, ast.Name)
    }
    for node in ast.walk(tree):
        if not (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Div, ast.Mult))):
            continue
        for own, out in ((node.left, node.right), (node.right, node.left)):
            if isinstance(node.op, ast.Div) and own is node.right:
                continue  # exp(m) / exp(row) is another slip
            if not (isinstance(out, ast.Call) and name_of(out.func) in _EXP_NAMES and out.args):
                continue
            m = alone(out.args[0])
            if m is None or m in subtracted:
                continue
            if not (isinstance(own, ast.Call) and name_of(own.func) in _EXP_NAMES and own.args):
                continue
            if m in _names_in(own.args[0]):
                continue
            return {"line": node.lineno, "name": m, "call": ast.unparse(own)}
    return None


_MEAN_LAST = re.compile(r"\.mean\(\s*(?:dim\s*=\s*)?-1\b")


def _mean_length(exercise, got) -> int | None:
    """The number of values the reference averages over, when its expression takes a mean over the last
    dimension (`.mean(dim=-1, …)`, an RMS norm) and the output keeps that dimension: the output's last
    size."""
    reference = getattr(exercise, "reference", None)
    if not isinstance(reference, str) or not _MEAN_LAST.search(reference) or got.dim() < 1:
        return None
    return int(got.shape[-1])


def _divides_by_minus_one(path: str | None) -> tuple[int, str] | None:
    """(line, divisor text) of the file's first division by `NAME - 1` (`sum_sq / (N - 1)`), or None."""
    tree = contracts.file_tree(path) if path else None
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            right = node.right
            if (
                isinstance(right, ast.BinOp)
                and isinstance(right.op, ast.Sub)
                and isinstance(right.left, ast.Name)
                and isinstance(right.right, ast.Constant)
                and right.right.value == 1
            ):
                return node.lineno, ast.unparse(right)
    return None


def _n_minus_one_message(diag: dict) -> str:
    n, factor = diag.get("n_minus_one"), diag.get("factor")
    at = f" (line {diag['line']})" if diag.get("line") else ""
    return (
        f"{_head(diag)}: every element is off by the same factor ({factor:.4g} times the right value), and "
        f"that is √((N − 1)/N) for N = {n}: the mean of squares is divided by N − 1{at} — divide the sum by N"
    )


def _explain_values(
    diagnoses: list,
    got,
    expected,
    inputs: dict,
    atol: float,
    rtol: float,
    learner_file: str | None = None,
    mean_n: int | None = None,
) -> None:
    """Wrong values whose pattern names the cause: the right values in the wrong places (output strides or
    indexing); a softmax-like NaN in rows whose inputs cannot overflow exp (then the max is not missing).
    `mean_n`: the length the reference averages over (an RMS norm's N), for a factor of √((N − 1)/N)."""
    # read once, asked twice (row-scaled yields to it, no-axis names it); a passing case reads nothing
    no_axis = _reduction_without_axis(learner_file) if learner_file and diagnoses else None
    # one ratio per case (it depends on the tensors only), asked only when a mismatch is there to refine
    mismatched = any(d.get("kind") == "mismatch" for d in diagnoses)
    near = _near_miss(got, expected, atol, rtol) if mismatched else None
    lossy: bool | None = None
    # one float copy of each, on the output's device (a GPU sorts and compares there), for the checks below
    gf, ef = (
        (got.detach().float(), expected.detach().float().to(got.device)) if mismatched else (got, expected)
    )
    for diag in diagnoses:
        if diag.get("kind") == "nan" and diag.get("cause") in (None, "high-row") and learner_file:
            line = _neg_inf_state(learner_file)
            start = "-inf"
            if line is None:  # a finite sentinel (-1e30) overflows the same way against the old max
                found = _sentinel_state(learner_file)
                line, start = found if found else (None, start)
            early = _against_old_max(learner_file, line) if line else None
            if early is not None:  # exp(s - m) with m still the old running max: -inf on the first block
                diag.update(cause="old-max", line=early[0], name=early[1], init_line=line, start=start)
                at, m = early
                diag["message"] = (
                    f"{_head(diag)}: line {at} subtracts the running max {m} before it is updated with "
                    f"this block's max — on the first block {m} is still its start ({start}), so exp of "
                    f"s - {m} is inf (and with any finite start the terms overflow whenever the max grows): "
                    f"compute the new max first (m_new = maximum({m}, max(s))) and take the terms against it"
                )
                continue
            if diag.get("cause") is not None or start != "-inf":
                continue
            if line:  # a running state started at -inf: lanes that never see a value compute -inf - -inf
                diag.update(cause="inf-minus-inf", line=line)
                diag["message"] = (
                    f"{_head(diag)}: line {line} starts a running state at -inf — a lane that never sees a "
                    "real value computes -inf - (-inf) = NaN (exp of it is NaN too): start at a large finite "
                    "value (-1e30) or guard the update with tl.where"
                )
                continue
        if near is not None and diag.get("kind") == "mismatch":
            diag["near_miss"] = near  # every wrong element within a few tolerances: precision, not places
        if diag.get("kind") == "mismatch" and mismatched:
            if lossy is None:  # could this case's values have gone through 16 bits (or a TF32 dot)?
                lossy = (
                    got.dtype not in (torch.float32, torch.float64)
                    or _lossy_steps(learner_file)
                    or _rounded16(got, expected)
                )
            diag["lossy16"] = lossy
            if near is not None and lossy and "line" not in diag:
                slip = _scaled_before_cast(learner_file)
                if slip is not None:  # (tl.load(...) * c).to(tl.float32): the product rounds in 16 bits
                    diag.update(line=slip[0], product=slip[1])
        if (
            diag.get("kind") == "mismatch"
            and diag.get("cause") in (None, "all-wrong")
            and got.numel() > 1
            and near is None
        ):
            g, e = gf.reshape(-1).sort().values, ef.reshape(-1).sort().values
            if (
                g.shape == e.shape
                and bool(torch.isfinite(g).all())
                and torch.allclose(g, e, atol=atol, rtol=rtol)
            ):
                diag.update(cause="permuted")
                diag["message"] = (
                    f"{_head(diag)}: the output holds the right values in the wrong places — "
                    "check how the output is indexed (its strides, and rows vs columns)"
                )
        if (
            diag.get("kind") == "mismatch"
            and diag.get("cause") in (None, "all-wrong")
            and got.is_floating_point()
        ):
            g, e = gf, ef
            wrong = ~torch.isclose(g, e, atol=atol, rtol=rtol)
            if (
                bool(wrong.any())
                and bool((g[wrong] == g[wrong].round()).all())
                and torch.allclose(g, e.trunc(), atol=atol, rtol=rtol)
            ):
                diag.update(cause="truncated")
                diag["message"] = (
                    f"{_head(diag)}: the stored values are the right ones cut to whole numbers — an integer "
                    "cast (.to(tl.int32)) or integer division before the store"
                )
                continue
        if (
            diag.get("kind") == "mismatch"
            and diag.get("cause") in (None, "all-wrong")
            and got.is_floating_point()
        ):
            g, e = gf.reshape(-1), ef.reshape(-1)
            big = e.abs() > 1e-3 * float(e.abs().max() or 1.0)
            if int(big.sum()) >= 2 and bool(torch.isfinite(g).all()):
                ratio = g[big] / e[big]
                factor = float(ratio.mean())
                steady = float(ratio.std()) <= 1e-2 * abs(factor)
                # a mean of squares divided by N - 1: off by sqrt((N - 1)/N), steadily — within a tenth of its
                # distance from 1 (0.0017 at N = 300, where the 1 % rule below does not look)
                gap = 1.0 - math.sqrt((mean_n - 1) / mean_n) if mean_n and mean_n > 1 else 0.0
                if gap > 0 and abs(factor - (1.0 - gap)) <= 0.1 * gap and float(ratio.std()) <= 0.1 * gap:
                    diag.update(cause="scaled", factor=round(factor, 6), n_minus_one=mean_n)
                    slip = _divides_by_minus_one(learner_file)
                    if slip is not None and "line" not in diag:
                        diag.update(line=slip[0], divisor=slip[1])
                    diag["message"] = _n_minus_one_message(diag)
                    continue
                if abs(factor - 1.0) > 0.01 and abs(factor) > 0.01 and steady:  # ~0: zeros, said elsewhere
                    diag.update(cause="scaled", factor=round(factor, 6))
                    diag["message"] = (
                        f"{_head(diag)}: every element is off by the same factor ({factor:.4g} times the "
                        "right "
                        "value) — a missing or extra scale: a sum where a mean belongs (divide by N), a "
                        "square "
                        "root, or a constant"
                    )
                    continue
            # a reduction without axis= over a 2D tile also scales each row by its own factor: that names
            # the line (no-axis, below) and wins
            factors = [] if no_axis else _row_factors(gf, ef)
            if not factors and not no_axis and diag.get("cause") is None and _uses_exp(learner_file):
                # lane sums added as they are: a row whose lanes' maxima lie far apart is scaled far below
                # 0.01 — steady all the same; taken as a scale only where the source shows that slip
                lanes = _rescale_slip(learner_file)
                if lanes is not None and lanes["slip"] == "lanes-unrescaled":
                    factors = _row_factors(gf, ef, floor=1e-6)
            if factors:
                # a softmax's rows are divided by a sum of exponentials, a norm's by its root mean square
                divisor = "exp" if _uses_exp(learner_file) else "norm"
                diag.update(
                    cause="row-scaled", factors=factors[:4], scaled_rows=len(factors), divisor=divisor
                )
                said = (
                    f"{_head(diag)}: each wrong row is off by one factor of its own ("
                    + ", ".join(f"row {r} × {f:.4g}" for r, f in factors[:4])
                    + ") — the values are right up to each row's scale"
                )
                # a softmax's rows scaled one by one: a rescale slip the loop shows in its source says where
                loop_slip = _rescale_slip(learner_file) if divisor == "exp" and not diag.get("line") else None
                if loop_slip is not None:
                    at = loop_slip.pop("line")
                    diag.update(line=at, rescale=loop_slip)
                    words = _rescale_slip_words(at, loop_slip)
                    if loop_slip["slip"] == "lanes-unrescaled":  # the divisor itself is the slip
                        words = f"check what the row is divided by: {words}"
                    diag["message"] = f"{said}: {words}"
                    continue
                what = (
                    "its sum or norm: the exp/exp2 base, the rescale when the max grows, a reduction over "
                    "the wrong axis, padding summed in"
                    if divisor == "exp"
                    else "its norm: the mean of squares over the whole row, eps inside the square root, the "
                    "weight applied after the statistics, padding summed in"
                )
                diag["message"] = f"{said}: check what the row is divided by ({what})"
                continue
        if diag.get("kind") == "nan" and diag.get("cause") == "softmax":
            x = next((v for v in inputs.values() if isinstance(v, torch.Tensor) and v.dim() == 2), None)
            rows = diag.get("rows") or []
            if x is None or not rows or max(rows) >= x.shape[0]:
                continue
            peak = x[torch.tensor(rows, device=x.device)].float().abs().amax()
            source = ""
            if learner_file:
                with contextlib.suppress(OSError, UnicodeDecodeError):
                    source = Path(learner_file).read_text(encoding="utf-8")
            late = _max_after_exp(learner_file)
            if late is not None:  # exp(row) / exp(row_max): the max comes out after exp overflowed
                top = float(x[torch.tensor(rows, device=x.device)].float().amax())
                diag.update(cause="max-after-exp", top=round(top, 1), **late)
                over = (
                    f"exp overflows to inf above ~88.7 (these rows reach {top:.4g}) and inf / inf is NaN"
                    if top >= 0
                    else f"exp underflows to 0 below about -103 (these rows' max is {top:.4g}) and 0 / 0 is "
                    "NaN"
                )
                diag["message"] = (
                    f"{_head(diag)}: line {late['line']} takes the max out after the exp ({late['call']} "
                    f"divided by exp({late['name']})) — {over}: subtract the max inside the exp instead, "
                    f"exp(x - {late['name']})"
                )
                continue
            subtracts_a_max = bool(re.search(r"\btl\.max\(|\.max\(|tl\.maximum\(", source))
            top = float(x[torch.tensor(rows, device=x.device)].float().amax())
            bare = (
                _unshifted_exp(learner_file) if subtracts_a_max and (top >= 80.0 or top <= -103.0) else None
            )
            if bare is not None:  # the file takes a max, but this exp subtracts none (another branch does)
                diag.update(cause="unshifted-exp", top=round(top, 1), **bare)
                diag["message"] = f"{_head(diag)}: {_unshifted_exp_words(bare, top)}"
                continue
            # exp(80) is finite in fp32: no overflow to subtract away; or the kernel subtracts a max already
            if float(peak) < 80.0 or subtracts_a_max:
                overflow = float(peak) >= 80.0
                # a kernel with no 2D tiles keeps its row state in scalars (an online softmax): no axis to get
                # wrong there, but a running max or a rescale factor
                tiles = _builds_2d_tiles(source)
                diag.update(cause="nan-reduction", subtracts_max=overflow, tiles=tiles)
                why = (
                    "your kernel already subtracts a maximum"
                    if overflow
                    else "these rows cannot overflow exp (|x| < 80)"
                )
                diag["message"] = (
                    f"{_head(diag)}: {why}, so a missing row max is not the cause — look for -inf - -inf or "
                    "0/0: a max or sum over the wrong axis (axis=1 gives one value per row, broadcast back "
                    "with "
                    "[:, None]) or padding lanes summed into it"
                    if tiles
                    else f"{_head(diag)}: {why}, so a missing row max is not the cause — look for -inf - "
                    "-inf or 0 * inf in the running state: a running max still -inf when it is "
                    "subtracted (is it updated: m = m_new?), a rescale factor exp(m_new - m) instead of "
                    "exp(m - m_new), or padding summed in"
                )
        # last, when nothing above named a cause: a reduction without axis= in a file that builds 2D tiles
        unnamed = diag.get("kind") == "mismatch" and diag.get("cause") in (None, "all-wrong")
        if unnamed and no_axis is not None:
            line, call = no_axis
            diag.update(cause="no-axis", line=line, call=call)
            diag["message"] = (
                f"{_head(diag)}: line {line} reduces with {call} and no axis= — on a 2D tile that folds "
                "every row (or column) into one value: pass axis=1 for one value per row"
            )
        elif unnamed and near is not None and diag.get("lossy16", True):
            # no cause of its own: the cross-case patterns may still name one
            diag["message"] = (
                f"{_head(diag)}: every wrong element is within {near:g}× the tolerance — the values are "
                "nearly right and precision is lost on the way: a product or scale rounded to fp16/bf16 "
                "before the end, a 16-bit accumulator, a dot in TF32 — keep intermediates in float32 until "
                "the store"
            )
        elif unnamed and near is not None:  # float32 all the way, no dot: not lost precision, a small error
            diag["message"] = _near_formula_message(diag, near)


#: TF32 keeps 10 of float32's 23 mantissa bits: each input of a TF32 dot is off by up to 2^-11 of itself
TF32_UNIT = 2.0**-11


def _tf32_dot_line(path: str | None) -> tuple[int, str] | None:
    """(line, call) of the first `tl.dot` in the learner's file that leaves its precision to the default,
    which is TF32 for float32 operands on an NVIDIA GPU: no input_precision= ("ieee" or "tf32x3") and no
    allow_tf32=False. A dot whose precision is passed as a name (unknown here) does not count."""
    tree = _learner_tree(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and name_of(node.func) == "dot"):
            continue
        words = {k.arg: k.value for k in node.keywords if k.arg}
        if "input_precision" in words or "allow_tf32" in words:
            continue  # chosen by the learner (a literal or a name): not the default
        return node.lineno, ast.unparse(node)[:80]
    return None


def _tf32_dot(
    diagnoses: list, exercise, inputs: dict, params: dict, kwargs: dict, got, expected, path, on_gpu: bool
) -> None:
    """A float32 case on a GPU whose wrong elements all fit TF32's rounding of a `tl.dot` left at its default
    precision: name the dot's line (cause "tf32-dot"). Every wrong element must be within 2 · 2^-11 of the
    reference evaluated on the inputs' magnitudes (|x| summed, |A|·|B|: what rounding each input to TF32 can
    move a dot by), and at least one beyond float32's own rounding of it (else not the dot's precision)."""
    if not on_gpu or got.dtype != torch.float32:
        return
    wrong = [d for d in diagnoses if d.get("kind") == "mismatch" and d.get("cause") in (None, "all-wrong")]
    if not wrong:
        return
    if any(
        isinstance(v, torch.Tensor) and v.is_floating_point() and v.dtype != torch.float32
        for v in inputs.values()
    ):
        return
    found = _tf32_dot_line(path)
    if found is None:
        return
    scale = exercise_env.magnitude_reference(exercise, inputs, params, kwargs)
    if scale is None or scale.shape != got.shape:
        return
    g, e, m = got.detach().double(), expected.detach().double().to(got.device), scale.to(got.device)
    err = (g - e).abs()
    if not bool(torch.isfinite(err).all()) or not bool((err <= 2 * TF32_UNIT * m + 1e-30).all()):
        return  # some error is more than TF32 can make: a different cause
    if not bool((err > 4 * float(torch.finfo(torch.float32).eps) * m).any()):
        return
    line, call = found
    for diag in wrong:
        diag.update(cause="tf32-dot", line=line, call=call)
        diag["message"] = (
            f"{_head(diag)}: line {line} — {call} multiplies float32 in TF32 on this GPU (its default: "
            "10 mantissa bits per input), and every wrong element is within that rounding: pass "
            'input_precision="ieee" for float32 products'
        )


def _near_formula_message(diag: dict, near: float) -> str:
    return (
        f"{_head(diag)}: every wrong element is within {near:g}× the tolerance — nearly right, but this case "
        "has no 16-bit step or dot to lose precision in: a small error in the formula — a rounded or "
        "mistyped constant, an approximation, or padding lanes counted in a sum or max (mask them out, or "
        "load them with other= set to the neutral value)"
    )


#: a wrong element at most this many times its allowance (atol + rtol·|expected|) is a near miss
NEAR_MISS = 4.0


CARRY_CHECKED = 32  # wrong tiles tested for a carried accumulator (spread over the output)
CARRY_TILES_MAX = 1 << 16  # more tiles than this: not a tile grid a learner's persistent kernel makes


def _near_miss(got, expected, atol: float, rtol: float) -> float | None:
    """The largest error/allowance ratio over the wrong elements when every one is a near miss (≤ NEAR_MISS),
    rounded up to 0.1; None when one is far off, a value is not finite, or the shapes differ. A near miss is
    a precision loss, not right values in the wrong places: sorted, such an output matches the expected one
    too (the FlashAttention with q pre-scaled in fp16 was told "check how the output is indexed")."""
    if not got.is_floating_point() or got.shape != expected.shape or got.numel() < 1:
        return None
    g, e = got.detach().float().reshape(-1), expected.detach().float().to(got.device).reshape(-1)
    if not (bool(torch.isfinite(g).all()) and bool(torch.isfinite(e).all())):
        return None
    allowance = atol + rtol * e.abs()
    ratio = (g - e).abs() / allowance.clamp_min(1e-30)
    wrong = ratio > 1.0
    if not bool(wrong.any()):
        return None
    worst = float(ratio[wrong].max())
    return math.ceil(worst * 10 - 1e-3) / 10 if worst <= NEAR_MISS else None  # 2.0000001 says 2


def _carried_tiles(diagnoses: list, got, expected, meta: dict, atol: float, rtol: float) -> None:
    """A persistent kernel whose accumulator is created once, above its tile loop: each program's first tile
    is right and every later one is its right value plus the tile before it. So each wrong BLOCK_M x BLOCK_N
    tile differs from its expected value by exactly another tile's output (zero outside the output's edge, as
    masked loads leave the accumulator there): cause `carried-acc`. At most CARRY_CHECKED wrong tiles are
    tested, each against every tile at once, on the output's own device (one tile at a time on the CPU took
    minutes for a 4096 x 4096 GPU case: wrong matmul files on the H200, eleventh session)."""
    diag = next((d for d in diagnoses if d.get("kind") == "mismatch"), None)
    bm, bn = contracts.tile_of(meta) or (None, None)
    if (
        diag is None
        or diag.get("cause") not in (None, "all-wrong")
        or got.dim() != 2
        or diag.get("near_miss")
    ):
        return
    if not (isinstance(bm, int) and isinstance(bn, int) and bm > 0 and bn > 0) or not got.is_floating_point():
        return
    g, e = got.detach().float(), expected.detach().float().to(got.device)
    if g.shape != e.shape or not bool(torch.isfinite(g).all()):
        return
    rows, cols = -(-g.shape[0] // bm), -(-g.shape[1] // bn)
    count = rows * cols
    if count < 2 or count > CARRY_TILES_MAX:
        return

    def tiled(value: torch.Tensor) -> torch.Tensor:  # [count, bm, bn], zero past the output's edge
        padded = value.new_zeros(rows * bm, cols * bn)
        padded[: g.shape[0], : g.shape[1]] = value
        return padded.reshape(rows, bm, cols, bn).permute(0, 2, 1, 3).reshape(count, bm, bn)

    outs, diffs = tiled(g), tiled(g - e)
    allowed = tiled(atol + rtol * e.abs())
    inside = tiled(torch.ones_like(g)).bool()
    wrong_tiles = ((diffs.abs() > allowed) & inside).flatten(1).any(1).nonzero().flatten().tolist()
    if not wrong_tiles:
        return
    step = max(1, len(wrong_tiles) // CARRY_CHECKED)
    checked = wrong_tiles[::step][:CARRY_CHECKED]
    carried = 0
    for t in checked:
        near = ((diffs[t] - outs).abs() <= 4 * allowed[t]) | ~inside[t]  # every tile against this one
        big = (outs.abs() > 4 * allowed[t]) & inside[t]  # a tile of zeros explains nothing
        match = near.flatten(1).all(1) & big.flatten(1).any(1)
        match[t] = False
        carried += bool(match.any())
    # past an edge tile the carried accumulator holds values outside the output (never stored, not seen here):
    # most wrong tiles, not all, show their predecessor
    if carried and 2 * carried >= len(checked):
        diag.update(
            cause="carried-acc", tiles=carried, tiles_total=len(wrong_tiles), tiles_checked=len(checked)
        )
        of = f"the {len(checked)} wrong tiles" + (
            f" checked (of {len(wrong_tiles)})" if len(checked) < len(wrong_tiles) else ""
        )
        diag["message"] = (
            f"{_head(diag)}: {carried} of {of} are their right value plus another tile's "
            "result — the accumulator carries over from the program's previous tile: create it (tl.zeros) at "
            "the start of each tile, inside the tile loop"
        )


def _k_loop(
    diagnoses: list,
    got,
    inputs: dict,
    params: dict,
    meta: dict,
    kwargs: dict,
    atol,
    rtol,
    learner_file: str | None = None,
) -> None:
    """A matmul wrong only with several K steps, tested against three mistakes inside the K loop: the
    accumulator re-created each step (only the last K slice survives), the bias added each step, and every
    step after the first adding nothing (the output is the first K slice's product: fact `first_step`, with
    the line when a K loop over offsets multiplies its variable by the step again — the `k-steps` message
    across cases says it)."""
    a, b, bias = inputs.get("a"), inputs.get("b"), inputs.get("bias")
    K, block = params.get("K"), meta.get("BLOCK_K")
    diag = next((d for d in diagnoses if d.get("kind") == "mismatch"), None)
    if diag is None or not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        return
    if not isinstance(K, int) or not isinstance(block, int) or block <= 0 or block >= K or a.dim() != 2:
        return
    steps = -(-K // block)
    plain = not kwargs.get("activation")
    g = got.detach().float()
    last = (steps - 1) * block
    partial = a[:, last:].float() @ b[last:, :].float()
    if isinstance(bias, torch.Tensor) and plain:
        partial = partial + bias.float()[None, :]
    tol = dict(atol=max(atol, 1e-2), rtol=max(rtol, 1e-2))
    if partial.shape == g.shape and torch.allclose(g, partial.to(got.dtype).float(), **tol):
        diag.update(cause="acc-reset", steps=steps)
        diag["message"] = (
            f"{_head(diag)}: the result is only the last K step's product — the accumulator is re-created "
            "inside the K loop: create it once, before the loop"
        )
        return
    if isinstance(bias, torch.Tensor) and plain:
        full = a.float() @ b.float() + steps * bias.float()[None, :]
        if full.shape == g.shape and torch.allclose(g, full.to(got.dtype).float(), **tol):
            diag.update(cause="bias-in-loop", steps=steps)
            diag["message"] = (
                f"{_head(diag)}: the bias was added {steps} times, once per K step — add it once, after the "
                "loop"
            )
            return
    first = a[:, :block].float() @ b[:block, :].float()
    if isinstance(bias, torch.Tensor) and plain:
        first = first + bias.float()[None, :]
    if first.shape == g.shape and torch.allclose(g, first.to(got.dtype).float(), **tol):
        found: dict = {"steps": steps}
        scaled = _offset_loop_scaled(learner_file)
        if scaled is not None:
            found.update(scaled)
        diag["first_step"] = found


def _block_values(
    diagnoses: list,
    got,
    expected,
    block: int | None,
    atol: float,
    rtol: float,
    unwritten=None,
    stored_twice: int = 0,
) -> None:
    """Wrong values in a 1D output whose expected values are one value per program's block (a program map:
    block p holds p everywhere), said from what the output holds inside each block:

    - `block-offsets`: every written element holds a value some program's block should hold, but a block
      mixes its own value with another program's — the values change at the wrong elements: the programs'
      blocks overlap or are shifted (offsets = pid + tl.arange(...) instead of pid * BLOCK_SIZE + ...);
    - `varies-in-block`: the values change from lane to lane inside a block where every lane must hold the
      same one (a value built from tl.arange or the offsets instead of the program id); `lane` / `offsets`
      say whether they are exactly the lane index or the element index, `pid_values` whether each block's
      value is its program id.

    Silent unless the expected output is constant over every block (with a block of two elements or more)
    and some block of the output is not: a constant but wrong value per block (pid + 1, zeros) is another
    bug, and an exercise whose expected values vary inside a block never gets here."""
    diag = next(
        (d for d in diagnoses if d.get("kind") == "mismatch" and d.get("cause") in (None, "all-wrong")),
        None,
    )
    if diag is None or not block or block < 2 or got.dim() != 1 or expected.shape != got.shape:
        return
    n = got.numel()
    if n < 2 or got.is_complex() or expected.is_complex():
        return
    g = got.detach().reshape(-1).to(torch.float64)
    e = expected.detach().reshape(-1).to(device=g.device, dtype=torch.float64)
    if not (bool(torch.isfinite(g).all()) and bool(torch.isfinite(e).all())):
        return
    index = torch.arange(n, device=g.device)
    starts = (index // block) * block
    if not torch.equal(e, e[starts]):
        return  # the expected values change inside a block: not a one-value-per-program output
    written = torch.ones(n, dtype=torch.bool, device=g.device)
    if isinstance(unwritten, torch.Tensor) and unwritten.numel() == n:
        written = ~unwritten.reshape(-1).to(device=g.device, dtype=torch.bool)
    programs = -(-n // block)
    padded = programs * block
    lanes = torch.full((padded,), float("nan"), dtype=torch.float64, device=g.device)
    lanes[:n] = torch.where(written, g, torch.full_like(g, float("nan")))
    tiles = lanes.reshape(programs, block)
    seen = ~torch.isnan(tiles)
    low = torch.where(seen, tiles, torch.full_like(tiles, float("inf"))).amin(dim=1)
    high = torch.where(seen, tiles, torch.full_like(tiles, float("-inf"))).amax(dim=1)
    values = e[torch.arange(programs, device=g.device) * block]  # each program's one expected value
    allowance = atol + rtol * values.abs()
    varies = seen.any(dim=1) & (high - low > allowance)
    if not bool(varies.any()):
        return
    first = int(torch.nonzero(varies).reshape(-1)[0])
    kept = g[written]
    runs = 1 + int((kept[1:] != kept[:-1]).sum()) if kept.numel() else 0
    if runs <= 2 * programs and bool(torch.isin(kept, values).all()):
        # every written value belongs to some program and comes in a few runs (a block pattern, not a value
        # that alternates from lane to lane), yet a block holds several: the boundaries are off
        wrong = written & ~torch.isclose(g, e, atol=atol, rtol=rtol)
        at = int(torch.nonzero(wrong).reshape(-1)[0]) if bool(wrong.any()) else int(first * block)
        owners = torch.nonzero(values == g[at]).reshape(-1).tolist()
        diag.update(cause="block-offsets", block=block, stored_twice=int(stored_twice or 0))
        where = ""
        if len(owners) == 1:
            owner = int(owners[0])
            diag.update(at=at, owner=owner, owner_start=owner * block)
            where = (
                f" (element {at} holds program {owner}'s value, but program {owner}'s block starts at "
                f"element {owner * block})"
            )
        twice = f"; {stored_twice} elements were stored by more than one program" if stored_twice else ""
        diag["message"] = (
            f"{_head(diag)}: every stored value is one that some program should store, but the values change "
            f"at the wrong elements{where}{twice} — the programs' blocks overlap or are shifted: each "
            "program's offsets must start at pid * BLOCK_SIZE (offsets = pid * BLOCK_SIZE + "
            "tl.arange(0, BLOCK_SIZE))"
        )
        return
    start, end = first * block, min(n, (first + 1) * block)
    shown = g[start:end][written[start:end]].tolist()
    distinct: list[float] = []
    for v in shown:
        if not distinct or v != distinct[-1]:
            distinct.append(v)
    lane = bool((kept == (index % block).to(torch.float64)[written]).all())
    offsets = bool((kept == index.to(torch.float64)[written]).all())
    pid_values = bool(torch.equal(values, torch.arange(programs, device=g.device, dtype=torch.float64)))
    value = float(values[first])
    diag.update(
        cause="varies-in-block",
        block=block,
        program=first,
        block_value=_plain_number(value),
        block_values_seen=[_plain_number(v) for v in distinct[:4]],
        block_values_more=len(distinct) > 4,
        lane=lane,
        offsets=offsets,
        pid_values=pid_values,
        dtype=str(got.dtype).replace("torch.", ""),
    )
    listed = ", ".join(f"{v:g}" for v in distinct[:4]) + (", …" if len(distinct) > 4 else "")
    what = (
        "the lane index (tl.arange) or the offsets were stored"
        if lane and offsets
        else "the lane index tl.arange(0, BLOCK_SIZE) was stored"
        if lane
        else "the offsets themselves were stored"
        if offsets
        else "a value computed per lane was stored"
    )
    whose = (
        "its program id, pid"
        if pid_values
        else "that program's one value, computed from its program id (tl.program_id(0))"
    )
    fix = (
        f"store pid in every lane (tl.full((BLOCK_SIZE,), pid, dtype=tl.{diag['dtype']}))"
        if pid_values
        else "compute the value from tl.program_id(0) alone, not from tl.arange or the offsets"
    )
    diag["message"] = (
        f"{_head(diag)}: every lane of a program's block must hold the same value — {whose} — but the "
        f"stored values change from lane to lane (program {first}'s block should hold {value:g} everywhere "
        f"and holds {listed}): {what} — {fix}"
    )


def _plain_number(value: float) -> int | float:
    """A float that is a whole number as an int (a program id), for the facts and the sentences."""
    return int(value) if float(value).is_integer() else float(value)


def _input_unread(diagnoses: list, provenance, learner_file: str | None = None) -> None:
    """A wrong output that no pattern explained, from kernels that never loaded one of the inputs (the
    runner's fact `unread`, interpreter only): `up = tl.load(gate_ptr + offs)` where `b_ptr` was meant. Cause
    `input-unread`, with the inputs' names; with one unread input and one load named for it that reads
    through another pointer (`y = tl.load(x_ptr + offsets)`), its `line` and `through` (its pointer)."""
    unread = provenance.get("unread") if isinstance(provenance, dict) else None
    names = [str(n)[:60] for n in unread or [] if isinstance(n, str) and n.isidentifier()][:4]
    diag = next((d for d in diagnoses if d.get("kind") == "mismatch"), None)
    if not names or diag is None or diag.get("cause") not in (None, "all-wrong"):
        return
    diag.update(cause="input-unread", inputs=names)
    listed = " and ".join(names)
    found = _load_named_for(learner_file, names[0]) if len(names) == 1 else None
    if found is not None and "line" not in diag:
        diag.update(line=found[0], through=found[1])
        diag["message"] = (
            f"{_head(diag)}: your kernels never loaded {listed} — line {found[0]} loads {listed} through "
            f"{found[1]}, so {listed}'s values cannot reach the output: load it through its own pointer"
        )
        return
    diag["message"] = (
        f"{_head(diag)}: your kernels never loaded {listed} — {'its' if len(names) == 1 else 'their'} values "
        "cannot reach the output: check the pointer each tl.load reads from (an input loaded through another "
        "input's pointer?) and that the wrapper passes it to the kernel"
    )


def _load_named_for(learner_file: str | None, name: str) -> tuple[int, str] | None:
    """(line, pointer) of the one `tl.load` whose result is named for the input `name` (`y = ...`,
    `y_tile = ...`) but whose address mentions nothing of that name (`tl.load(x_ptr + offsets)`): a load
    through another input's pointer. None when there is no such load, or several."""
    import ast

    tree = _learner_tree(learner_file)
    if tree is None:
        return None
    found = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
        ):
            continue
        target = node.targets[0].id
        if target != name and not target.startswith(name + "_"):
            continue
        loads = [
            c
            for c in ast.walk(node.value)
            if isinstance(c, ast.Call) and name_of(c.func) == "load" and (c.args or c.keywords)
        ]
        if len(loads) != 1:
            continue
        address = loads[0].args[0] if loads[0].args else loads[0].keywords[0].value
        used = [n.id for n in ast.walk(address) if isinstance(n, ast.Name)]
        if used and not any(u == name or u.startswith(name + "_") for u in used):
            pointers = [u for u in used if u.endswith("_ptr") or "ptr" in u] or used
            found.append((node.lineno, pointers[0]))
    return found[0] if len(found) == 1 else None


def _stride_unused(diagnoses: list, learner_file: str | None, inputs: dict) -> None:
    """A wrong output that no pattern explained, from a @triton.jit kernel with a stride parameter it never
    reads (stride_xn given, the column step written as 1): a case with another layout (the lab's transposed
    views, far rows) then reads the wrong elements. Cause `stride-unused`, facts `names`, `line`."""
    import ast

    diag = next((d for d in diagnoses if d.get("kind") == "mismatch"), None)
    if diag is None or diag.get("cause") not in (None, "all-wrong"):
        return
    if not any(isinstance(v, torch.Tensor) and not v.is_contiguous() for v in inputs.values()):
        return  # every input is contiguous here: an unused stride changes nothing in this case
    tree = _learner_tree(learner_file)
    if tree is None:
        return
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        if not any("jit" in ast.unparse(d) for d in function.decorator_list):
            continue
        used = _names_in(function)
        unused = [a.arg for a in function.args.args if "stride" in a.arg.lower() and a.arg not in used]
        if unused:
            names = ", ".join(unused[:4])
            diag.update(cause="stride-unused", names=unused[:4], line=function.lineno)
            diag["message"] = (
                f"{_head(diag)}: your kernel {function.name} takes {names} and never uses "
                f"{'it' if len(unused) == 1 else 'them'} — the lab passes tensors whose steps are not 1 (a "
                "transposed view): multiply each offset by its stride, as the address of x[i, j] is "
                "x_ptr + i * stride_xm + j * stride_xn"
            )
            return


def _all_zero_stored(diagnoses: list, provenance, numel: int, learner_file: str | None = None) -> None:
    """'Is the result stored?' is wrong when the interpreter saw the kernel store every element: it stored
    0. A loop whose count is rounded down (range(K // BLOCK_K)) is named: it runs no step when K < BLOCK_K."""
    facts = provenance if isinstance(provenance, dict) else {}
    if _int(facts.get("store_lanes")) < numel or _int(facts.get("stored_poison")):
        return
    for diag in diagnoses:
        if diag.get("kind") == "mismatch" and diag.get("cause") == "all-zero":
            diag.update(cause="computed-zero")
            floor = _floor_loop(learner_file)
            if floor is not None and _WHOLE_BLOCKS.search(floor[1]):
                line, count = floor
                diag.update(loop_line=line, loop_count=count, loop_kind="whole-blocks")
                diag["message"] = (
                    f"{_head(diag)}: every element was stored, and every stored value is 0 — the loop at "
                    f"line {line} (bound {count}) runs over whole blocks only: a size smaller than the block "
                    "gets no step, and the last partial block of a longer one is dropped — loop to the size "
                    "itself in steps of the block and mask the last block"
                )
                continue
            if floor is not None:
                line, count = floor
                diag.update(loop_line=line, loop_count=count)
                diag["message"] = (
                    f"{_head(diag)}: every element was stored, and every stored value is 0 — the loop at "
                    f"line {line} runs {count} steps, rounded down: when the size is smaller than the block "
                    "it runs none, and nothing is accumulated — count the steps with tl.cdiv and mask the "
                    "last block"
                )
                continue
            never = _loop_never_ran(learner_file, facts.get("unread"))
            if never is not None:
                diag.update(never, loop_kind="never-ran", line=never["bound_line"] or never["loop_line"])
                listed = " and ".join(never["inputs"])
                where = (
                    f"check {never['loop_count']} at line {never['bound_line']} ({never['bound_text']})"
                    if never["bound_line"]
                    else f"check its bound {never['loop_count']}"
                )
                diag["message"] = (
                    f"{_head(diag)}: every element was stored, and every stored value is 0 — your kernels "
                    f"never loaded {listed}, which only the loop at line {never['loop_line']} loads: that "
                    f"loop never ran (its bound {never['loop_count']} was no more than its start "
                    f"{never['loop_start']} in every program) — {where}"
                )
                continue
            diag["message"] = (
                f"{_head(diag)}: every element was stored, and every stored value is 0 — the kernel "
                "computes 0: "
                "check what the computation starts from and what it multiplies by"
            )


_RANGES = ("range", "tl.range", "triton.language.range", "tl.static_range")


def _loop_never_ran(path: str | None, unread) -> dict | None:
    """The loop that never ran, when the kernels computed 0 and never loaded some inputs (the runner's fact
    `unread`, interpreter only) and every tl.load in the file that reads one of those inputs (through a name
    that is the input's or starts with it and "_": k_ptr, k_ptrs) lies inside that one loop: its bound was no
    more than its start (a causal key loop that ends at seq_len - 1 when seq_len is 1). Facts `loop_line`,
    `loop_count` (the bound as written), `loop_start`, `inputs`, and where the bound is a name assigned in the
    loop's function, `bound_line` / `bound_text` (of several assignments, the one that can come out below the
    size: a subtraction or a minimum), else None there."""
    names = [str(n) for n in unread or [] if isinstance(n, str) and n.isidentifier()]
    tree = _learner_tree(path) if names else None
    if tree is None:
        return None

    def reads(load: ast.Call, name: str) -> bool:
        found = _names_in(load.args[0])
        return any(n.lower() == name.lower() or n.lower().startswith(name.lower() + "_") for n in found)

    loads = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and name_of(n.func) == "load" and n.args]
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    for function in functions:
        for loop in (n for n in ast.walk(function) if isinstance(n, ast.For)):
            call = loop.iter
            if not isinstance(call, ast.Call):
                continue
            args = call.args
            if ast.unparse(call.func) not in _RANGES or not args or len(args) > 3:
                continue
            inside = {id(n) for n in ast.walk(loop)}
            matched = [
                name
                for name in names
                if any(reads(load, name) for load in loads)
                and all(id(load) in inside for load in loads if reads(load, name))
            ]
            if not matched:
                continue
            start, bound = (ast.Constant(0), args[0]) if len(args) == 1 else (args[0], args[1])
            bound_line, bound_text = None, None
            if isinstance(bound, ast.Name):
                assigned = [
                    n
                    for n in ast.walk(function)
                    if isinstance(n, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == bound.id for t in n.targets)
                    and n.lineno < loop.lineno
                ]
                if len(assigned) > 1:
                    assigned = [
                        n
                        for n in assigned
                        if any(
                            isinstance(b, ast.BinOp) and isinstance(b.op, ast.Sub) for b in ast.walk(n.value)
                        )
                        or any(
                            isinstance(c, ast.Call) and name_of(c.func) in ("minimum", "min")
                            for c in ast.walk(n.value)
                        )
                    ]
                if len(assigned) == 1:
                    bound_line = assigned[0].lineno
                    bound_text = f"{bound.id} = {ast.unparse(assigned[0].value)}"[:100]
            return {
                "loop_line": loop.lineno,
                "loop_count": ast.unparse(bound)[:60],
                "loop_start": ast.unparse(start)[:60],
                "inputs": matched[:4],
                "bound_line": bound_line,
                "bound_text": bound_text,
            }
    return None


def _range_args(loop) -> list | None:
    """The arguments of `for v in range(...)` / tl.range / tl.static_range, or None for another loop."""
    import ast

    it = loop.iter
    if not isinstance(it, ast.Call) or not isinstance(loop.target, ast.Name):
        return None
    func = it.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return list(it.args) if name in ("range", "static_range") and it.args and not it.keywords else None


def _statement_of(loop, node) -> Any:
    """The statement of `loop`'s body (at any depth) that holds `node`."""
    import ast

    best: Any = None
    for stmt in ast.walk(loop):
        if not isinstance(stmt, ast.stmt) or stmt is loop or not any(n is node for n in ast.walk(stmt)):
            continue
        if best is None or stmt.lineno >= best.lineno:
            best = stmt
    return best


def _offset_loop_scaled(path: str | None) -> dict | None:
    """`for k in range(0, K, BLOCK_K)` — k already an offset, stepping by BLOCK_K — whose body multiplies k by
    that step again (`k_remaining = K - k * BLOCK_K`): from the second step on, the offset is BLOCK_K times
    too far. {"line", "code", "loop_line", "var", "step"} of the first such statement, or None."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    for loop in ast.walk(tree):
        args = _range_args(loop) if isinstance(loop, ast.For) else None
        if not args or len(args) != 3 or not isinstance(args[2], ast.Name):
            continue
        assert isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
        var, step = loop.target.id, args[2].id
        for node in ast.walk(loop):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)):
                continue
            sides = {n.id for n in (node.left, node.right) if isinstance(n, ast.Name)}
            if sides == {var, step}:
                stmt = _statement_of(loop, node)
                if stmt is None:
                    continue
                return {
                    "line": stmt.lineno,
                    "code": ast.unparse(stmt)[:160],
                    "loop_line": loop.lineno,
                    "var": var,
                    "step": step,
                }
    return None


def _chunk_index_offset(path: str | None) -> dict | None:
    """`for c in range(0, tl.cdiv(n, BLOCK))` — c counts chunks — whose body starts a chunk at the chunk index
    itself (`cols = c + tl.arange(0, BLOCK)`) rather than at c * BLOCK: chunk c starts at column c, so the
    chunks overlap and the end of the row is never read. {"line", "code", "loop_line", "var", "block"} of the
    first such statement, or None."""
    import ast

    def is_call(node, name: str) -> bool:
        return isinstance(node, ast.Call) and name_of(node.func) == name

    tree = _learner_tree(path)
    if tree is None:
        return None
    for loop in ast.walk(tree):
        args = _range_args(loop) if isinstance(loop, ast.For) else None
        if not args or len(args) > 2:
            continue
        stop = args[-1]
        if not is_call(stop, "cdiv") or len(stop.args) != 2:
            continue
        assert isinstance(loop, ast.For) and isinstance(loop.target, ast.Name)
        var, block = loop.target.id, ast.unparse(stop.args[1])
        for node in ast.walk(loop):
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
                continue
            pair = (node.left, node.right)
            if any(
                isinstance(a, ast.Name) and a.id == var and is_call(b, "arange")
                for a, b in (pair, pair[::-1])
            ):
                stmt = _statement_of(loop, node)
                if stmt is None:
                    continue
                return {
                    "line": stmt.lineno,
                    "code": ast.unparse(stmt)[:160],
                    "loop_line": loop.lineno,
                    "var": var,
                    "block": block,
                }
    return None


def _learner_tree(path: str | None):
    """The learner's file parsed (an ast.Module), or None when there is none or it does not parse."""
    return contracts.file_tree(path)


def _loop_has_step(path: str | None) -> bool:
    """Whether a for loop in the learner's file steps by something other than 1 (range(pid, n, P), tl.range
    with a step): a persistent tile loop that already takes every P-th tile."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return False
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.iter, ast.Call):
            args = node.iter.args
            if ast.unparse(node.iter.func) in ("range", "tl.range") and len(args) >= 3:
                step = args[2]
                if not (isinstance(step, ast.Constant) and step.value == 1):
                    return True
    return False


def _tile_map_line(path: str | None) -> tuple[int, str] | None:
    """(line, text) of the assignment of pid_m (alone or with pid_n) inside a persistent tile loop that starts
    at the program id and steps by something other than 1 (`for tile_id in range(pid, num_tiles, P)`): the
    loop covers every id, so tiles left unwritten come from the id's mapping. None otherwise."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    pids = contracts.program_id_names(tree)
    for loop in ast.walk(tree):
        if not (isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call) and len(loop.iter.args) >= 3):
            continue
        start, step = loop.iter.args[0], loop.iter.args[2]
        starts_at_pid = "program_id" in ast.unparse(start) or (
            isinstance(start, ast.Name) and start.id in pids
        )
        if not starts_at_pid or (isinstance(step, ast.Constant) and step.value == 1):
            continue
        for node in ast.walk(loop):
            if isinstance(node, ast.Assign):
                names = {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
                if "pid_m" in names or "pid_n" in names:
                    return node.lineno, ast.unparse(node)[:80]
    return None


def _single_assignments(function: ast.AST) -> dict[str, ast.expr]:
    """name -> value of every name a function assigns exactly once, by a plain `name = value` (not a tuple
    target, not `+=`), in its own body (nested functions left out): what `_expanded` writes a name out to."""
    seen: dict[str, list] = {}
    todo: list[ast.AST] = list(getattr(function, "body", []))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            plain = isinstance(node, ast.Assign) and len(targets) == 1 and isinstance(targets[0], ast.Name)
            for target in targets:
                for n in ast.walk(target):
                    if isinstance(n, ast.Name):
                        seen.setdefault(n.id, []).append(node.value if plain else None)
        elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.AST):
            for n in ast.walk(node.target):
                if isinstance(n, ast.Name):
                    seen.setdefault(n.id, []).extend([None, None])
        todo.extend(ast.iter_child_nodes(node))
    return {name: values[0] for name, values in seen.items() if len(values) == 1 and values[0] is not None}


def _expanded(node: ast.AST, assigns: dict[str, ast.expr], depth: int = 4) -> str:
    """`node`'s text with every name the function assigns once written out as its value (to `depth` levels):
    `off_m` and `pid_m * BLOCK_M` read alike when `off_m = pid_m * BLOCK_M`. The parsed tree is left as it
    is."""
    copy = ast.parse(ast.unparse(node), mode="eval").body
    for _ in range(depth):
        changed = False

        class _Out(ast.NodeTransformer):
            def visit_Name(self, name: ast.Name) -> ast.AST:
                nonlocal changed
                value = assigns.get(name.id)
                if value is None:
                    return name
                changed = True
                return ast.parse(f"({ast.unparse(value)})", mode="eval").body

        copy = _Out().visit(copy)
        if not changed:
            break
    return ast.unparse(copy)


def _tile_loop_wrong_step(path: str | None, launches: list | None = None) -> dict | None:
    """A persistent tile loop that starts at the program id (`for tile_id in range(pid, stop, step)`, or
    tl.range) and whose step cannot be the program count: the step is the loop's own stop — the same
    expression, through the function's single assignments (`range(pid, num_tiles, num_tiles)`: every program
    takes one iteration, its first tile, form "stop") — or a launch block size (`BLOCK_M`) whose value at each
    launch of the loop's kernel differs from that launch's program count (form "block": program pid takes
    pid, pid + BLOCK_M, …). {"line" (the loop's), "call" (its header), "step", "stop", "form", and with form
    "block" "step_value", "programs"}, or None."""
    tree = _learner_tree(path)
    if tree is None:
        return None
    pids = contracts.program_id_names(tree)
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        assigns: dict[str, ast.expr] | None = None
        for loop in ast.walk(function):
            it = loop.iter if isinstance(loop, ast.For) else None
            if not (isinstance(it, ast.Call) and ast.unparse(it.func) in _RANGE_CALLS and len(it.args) == 3):
                continue
            assert isinstance(loop, ast.For)
            start, stop, step = it.args
            if not ("program_id" in ast.unparse(start) or (isinstance(start, ast.Name) and start.id in pids)):
                continue
            if isinstance(step, ast.Constant):
                continue
            assigns = _single_assignments(function) if assigns is None else assigns
            found = {
                "line": loop.lineno,
                "call": f"for {ast.unparse(loop.target)} in {ast.unparse(it)}"[:120],
                "step": ast.unparse(step)[:60],
                "stop": ast.unparse(stop)[:60],
            }
            if _expanded(step, assigns) == _expanded(stop, assigns) and "program" not in ast.unparse(step):
                return dict(found, form="stop")
            if not (isinstance(step, ast.Name) and step.id.startswith("BLOCK")):
                continue
            mine = [x for x in launches or [] if isinstance(x, dict) and x.get("kernel") == function.name]
            pairs = []
            for launch in mine:
                value, grid = (launch.get("meta") or {}).get(step.id), launch.get("grid") or []
                if not isinstance(value, int) or not grid:
                    break
                programs = math.prod(max(int(d), 1) for d in grid)
                if value == programs:
                    break
                pairs.append((value, programs))
            else:
                if pairs:
                    return dict(found, form="block", step_value=pairs[0][0], programs=pairs[0][1])
    return None


def _descriptor_accesses(function: ast.FunctionDef) -> list[dict]:
    """The loads and stores of a function's in-kernel tensor descriptors (`d = tl.make_tensor_descriptor(ptr,
    shape=[M, K], ...)`, then `d.load([r, c])`, `d.store([r, c], v)`) whose coordinates are a list as long as
    the descriptor's shape: {"node", "desc", "sizes" (the shape's entries as written), "coords"} each. A
    descriptor name assigned more than once (one shape under `if`, another under `else`) is left out."""
    shapes: dict[str, list[str]] = {}
    assigned: dict[str, int] = {}
    for node in ast.walk(function):
        for target in node.targets if isinstance(node, ast.Assign) else []:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    assigned[name.id] = assigned.get(name.id, 0) + 1
    for node in ast.walk(function):
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and name_of(node.value.func) == "make_tensor_descriptor"
        ):
            continue
        call = node.value
        shape = next((k.value for k in call.keywords if k.arg == "shape"), None)
        shape = shape if shape is not None or len(call.args) < 2 else call.args[1]
        if isinstance(shape, (ast.List, ast.Tuple)) and assigned.get(node.targets[0].id) == 1:
            shapes[node.targets[0].id] = [ast.unparse(e) for e in shape.elts]
    found = []
    for node in ast.walk(function):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("load", "store")
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id in shapes
            and node.args
            and isinstance(node.args[0], (ast.List, ast.Tuple))
        ):
            continue
        desc = node.func.value.id
        coords = list(node.args[0].elts)
        if len(coords) == len(shapes[desc]):
            found.append({"node": node, "desc": desc, "sizes": shapes[desc], "coords": coords})
    return found


def _descriptor_axis_slip(path: str | None) -> dict | None:
    """A tensor descriptor's load or store that gives one axis of the descriptor's shape a coordinate the
    function's other descriptor accesses give another axis: with A over [M, K], B over [K, N] and C over
    [M, N], `b_desc.load([k, off_m])` puts along N the coordinate `a_desc.load` and `c_desc.store` put along
    M, while `c_desc.store([off_m, off_n], …)` gives N its own, off_n (probe round 17c: B's tile loaded at the
    row offset). Axes are told apart by the shape's entries as written (a square shape [N, N] names one axis
    twice: never said); coordinates are compared through the function's single assignments (`off_m` and
    `pid_m * BLOCK_M` alike), and a coordinate that holds no name (0, a literal) is never taken for an axis's.
    {"line", "call", "desc", "axis" (the index), "axis_size", "coordinate", "coordinate_axis",
    "coordinate_line", "instead", "instead_line"} of the first such access, or None."""
    tree = _learner_tree(path)
    if tree is None:
        return None
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        accesses = _descriptor_accesses(function)
        if len(accesses) < 2:
            continue
        assigns = _single_assignments(function)
        uses = [
            (n, size, _expanded(coord, assigns), coord)
            for n, access in enumerate(accesses)
            for size, coord in zip(access["sizes"], access["coords"], strict=True)
            if any(isinstance(x, ast.Name) for x in ast.walk(coord))
        ]
        slips: list[tuple[int, dict]] = []
        for n, size, text, coord in uses:
            elsewhere = [(m, s) for m, s, t, _ in uses if m != n and t == text]
            other_axis = [(m, s) for m, s in elsewhere if s != size]
            own = [(m, c) for m, s, t, c in uses if m != n and s == size and t != text]
            if not other_axis or not own or any(s == size for _, s in elsewhere):
                continue
            access = accesses[n]
            index = next(i for i, c in enumerate(access["coords"]) if c is coord)
            other_axis.sort(key=lambda pair: accesses[pair[0]]["node"].lineno)
            own.sort(key=lambda pair: accesses[pair[0]]["node"].lineno)
            slips.append(
                (
                    n,
                    {
                        "line": access["node"].lineno,
                        "call": ast.unparse(access["node"])[:120],
                        "desc": access["desc"],
                        "axis": index,
                        "axis_size": size[:40],
                        "coordinate": ast.unparse(coord)[:60],
                        "coordinate_axis": other_axis[0][1][:40],
                        "coordinate_line": accesses[other_axis[0][0]]["node"].lineno,
                        "instead": ast.unparse(own[0][1])[:60],
                        "instead_line": accesses[own[0][0]]["node"].lineno,
                    },
                )
            )
        if slips:  # B's coordinates swapped make A's K coordinate look misplaced too: the access with the
            # most misplaced axes is the slip, then the first by line
            count: dict[int, int] = {}
            for n, _ in slips:
                count[n] = count.get(n, 0) + 1
            return min(slips, key=lambda s: (-count[s[0]], s[1]["line"], s[1]["axis"]))[1]
    return None


def _descriptor_axis_cause(cases: list, learner_file: str) -> None:
    """The first failing case's wrong values, when nothing more specific than a case pattern named their cause
    and a descriptor access of the file puts one axis's coordinate along another (`_descriptor_axis_slip`):
    cause `descriptor-axis` with that access's line."""
    _, diag = _open_to_source_rule(cases)
    if diag is None or diag.get("line"):
        return
    found = _descriptor_axis_slip(learner_file)
    if found is None:
        return
    _name_cause(
        diag,
        "descriptor-axis",
        found,
        f"line {found['line']} ({found['call']}) gives {found['desc']}'s axis along {found['axis_size']} the "
        f"coordinate {found['coordinate']}, which line {found['coordinate_line']} gives the axis along "
        f"{found['coordinate_axis']} — the tile is right only where the two coordinates happen to be equal: "
        f"along {found['axis_size']} use {found['instead']}, as line {found['instead_line']} does",
    )


_RANGE_CALLS = frozenset({"range", "tl.range", "triton.language.range"})


def _floor_tile_count(path: str | None) -> tuple[int, str, str] | None:
    """(line, name, text) of `tiles_per_SM = num_tiles // NUM_SMS`: a floor division assigned to a name that
    a for loop's range uses, with no `name += ...` anywhere (the tutorial adds one for the programs below
    num_tiles % NUM_SMS). None otherwise."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    bumped = {
        n.target.id for n in ast.walk(tree) if isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name)
    }
    in_loops = {
        n.id
        for loop in ast.walk(tree)
        if isinstance(loop, ast.For) and isinstance(loop.iter, ast.Call)
        for n in ast.walk(loop.iter)
        if isinstance(n, ast.Name)
    }
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.BinOp)
            and isinstance(node.value.op, ast.FloorDiv)
        ):
            name = node.targets[0].id
            if name in in_loops and name not in bumped:
                return node.lineno, name, ast.unparse(node.value)[:60]
    return None


def _floor_loop(path: str | None) -> tuple[int, str] | None:
    """(line, the count as written) of the first for loop in the learner's file whose range bound is a floor
    division (range(K // BLOCK_K), tl.range(0, K // BLOCK_K)), else None."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Call):
            continue
        func = ast.unparse(node.iter.func)
        if func not in ("range", "tl.range", "triton.language.range", "tl.static_range"):
            continue
        args = node.iter.args
        bound = args[0] if len(args) == 1 else args[1] if len(args) > 1 else None
        if isinstance(bound, ast.BinOp) and isinstance(bound.op, ast.FloorDiv):
            return node.lineno, ast.unparse(bound)[:60]
        if isinstance(bound, ast.BinOp) and _WHOLE_BLOCKS.search(ast.unparse(bound)):
            return node.lineno, ast.unparse(bound)[:60]  # range(0, N - BLOCK + 1, BLOCK): whole blocks only
    return None


#: a loop bound that stops a block short of the size: `n_cols - BLOCK_SIZE + 1`, `N - BLOCK`
_WHOLE_BLOCKS = re.compile(r"-\s*\(?\s*(?:\w+\.)?\w*(?:BLOCK|TILE|CHUNK)\w*", re.IGNORECASE)


_NEG_INF_FULL = re.compile(r"tl\.full\([^)]*(?:float\(\s*['\"]-inf['\"]\s*\)|-float\(\s*['\"]inf['\"]\s*\))")


def _neg_inf_state(path: str) -> int | None:
    """The line of a `tl.full(..., float("-inf"), ...)` running state in the learner's file, or None."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        for number, text in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            if _NEG_INF_FULL.search(text.split("#", 1)[0]):
                return number
    return None


_SENTINEL_FULL = re.compile(r"tl\.full\([^)]*?(-\s*\d+(?:\.\d*)?[eE]\+?(?:[2-9]\d|\d{3}))")


def _sentinel_state(path: str) -> tuple[int, str] | None:
    """(line, value) of a `tl.full(..., -1e30, ...)` running state (a large negative finite start)."""
    with contextlib.suppress(OSError, UnicodeDecodeError):
        for number, text in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
            found = _SENTINEL_FULL.search(text.split("#", 1)[0])
            if found:
                return number, found.group(1).replace(" ", "")
    return None


def _against_old_max(path: str, init_line: int) -> tuple[int, str] | None:
    """(line, name) of an exp/exp2 of `x - name` inside a loop, before the loop reassigns `name`, where `name`
    is the running state started at -inf on `init_line`: the block's terms taken against the old max."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    names = {
        t.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and node.lineno == init_line
        for t in node.targets
        if isinstance(t, ast.Name)
    }
    if len(names) != 1:
        return None
    (name,) = names

    def uses(node: ast.AST) -> bool:
        return any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(node))

    def against(stmt: ast.stmt) -> bool:
        for call in ast.walk(stmt):
            if not isinstance(call, ast.Call) or not call.args:
                continue
            func = name_of(call.func)
            if func not in ("exp", "exp2"):
                continue
            arg = call.args[0]
            if isinstance(arg, ast.BinOp) and isinstance(arg.op, ast.Sub) and uses(arg.right):
                return not uses(arg.left)  # exp(m_i - m_new) is the rescale, not a block's terms
        return False

    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        for stmt in loop.body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else []
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                break  # reassigned: later statements see the new max
            if isinstance(stmt, ast.Assign) and against(stmt):
                return stmt.lineno, name
    return None


def _row_factors(got: torch.Tensor, expected: torch.Tensor, floor: float = 0.01) -> list[tuple[int, float]]:
    """[(row, factor)] when every wrong row of a 2D output is its reference times one factor of its own (a
    softmax's denominator off per row), and the factors differ or some rows are right; [] otherwise. All rows
    at once, on the output's device (a Python loop over 4096 rows cost seconds per GPU case). A row whose
    factor is below `floor` is taken for zeros (said elsewhere), not for a scale."""
    if got.dim() != 2 or got.shape[1] < 2 or not bool(torch.isfinite(got).all()):
        return []
    g, e = got.detach().float(), expected.detach().float().to(got.device)
    peak = e.abs().amax(dim=1, keepdim=True)
    big = e.abs() > 1e-3 * torch.where(peak > 0, peak, torch.ones_like(peak))
    counted = big.sum(dim=1)
    ratio = torch.where(big, g / torch.where(big, e, torch.ones_like(e)), torch.zeros_like(g))
    factor = ratio.sum(dim=1) / counted.clamp_min(1)
    spread = torch.where(big, (ratio - factor[:, None]) ** 2, torch.zeros_like(g)).sum(dim=1)
    std = (spread / (counted - 1).clamp_min(1)).sqrt()  # torch.std's (unbiased) spread of the ratios
    considered = counted >= 2
    right = considered & ((factor - 1.0).abs() <= 1e-3)
    off = considered & ~right
    if bool((off & ((std > 1e-2 * factor.abs()) | (factor.abs() < floor))).any()):
        return []  # a row that is not a pure scale: some other bug
    rows = off.nonzero().flatten().tolist()
    found = [(row, round(value, 6)) for row, value in zip(rows, factor[off].tolist(), strict=True)]
    distinct = {round(f, 3) for _, f in found}
    # one factor for the whole output is `scaled` (said before this); here the rows differ, or some are right
    return found if found and (len(distinct) >= 2 or bool(right.any())) else []


def _far_rows_only(first: dict, bad: list, good: list) -> bool:
    """Only the far_rows case fails (its input's rows 2**30 elements apart, row 2 at element 2**31), with
    wrong or missing values rather than an out-of-bounds access (the interpreter's bounds checker names an
    int32 wrap itself: memcheck's `int32_wrap`): on a GPU the wrapped offset can land in memory that
    exists."""
    name = (bad[0].get("kwargs") or {}).get("@far_rows")
    if not name or not good or any((c.get("kwargs") or {}).get("@far_rows") != name for c in bad):
        return False
    if first.get("kind") not in ("mismatch", "nan", "unwritten") or first.get("cause") not in (
        None,
        "all-wrong",
    ):
        return False
    first.update(cause="far-rows", input=name)
    first["message"] = (
        f"{refit.head(first)}: only the case whose {name} has its rows 2**30 elements apart fails (row 2 "
        "starts at element 2**31) — an offset computed in int32 wraps there: compute the row offset in int64 "
        f"(tl.program_id(0).to(tl.int64) * stride); and step from row to row by {name}.stride(0), not by "
        "its width"
    )
    return True


def _only_row_0(case: dict) -> bool:
    """The case's first diagnosis is inf/NaN or wrong values in row 0 and nowhere else."""
    diag = (case.get("diagnoses") or [{}])[0]
    if diag.get("kind") in ("nan", "mismatch") and (case.get("map_grid") or {}).get("n_rows") == 1:
        return True  # a one-row output: row 0 is all there is
    if diag.get("kind") == "nan":
        return diag.get("rows") == [0]
    return diag.get("kind") == "mismatch" and diag.get("rows") == [[0, 0]]


def _wrong_programs(diag: dict) -> set[int] | None:
    """The programs (1D blocks) a mismatch names, from its runs; None when it names none."""
    runs = diag.get("programs")
    if diag.get("kind") != "mismatch" or not isinstance(runs, list) or not runs:
        return None
    if diag.get("programs_total") not in (None, len(runs)):
        return None  # cut short: not every program is listed
    return {p for a, b in runs for p in range(int(a), int(b) + 1)}


def _jit_functions(tree: ast.AST) -> list[ast.FunctionDef]:
    """The file's functions decorated with something that names `jit` (`@triton.jit`, `@jit`)."""
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in n.decorator_list)
    ]


def _derived_names(function: ast.AST, seed) -> set[str]:
    """Names `function` assigns (or loops over) from an expression `seed` accepts or from a name already
    found, to a fixed point: `pid = tl.program_id(0)`, then `offsets = pid * B + ...`, then `mask = ...`."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                targets, value = list(node.targets), node.value
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets, value = [node.target], node.value
            elif isinstance(node, ast.For):
                targets, value = [node.target], node.iter
            else:
                continue
            if seed(value) or _names_in(value) & found:
                new = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)} - found
                if new:
                    found |= new
                    changed = True
    return found


def _access_address(call: ast.Call) -> ast.AST | None:
    """The pointer argument of a `tl.load` / `tl.store` call, or None for any other call."""
    if ast.unparse(call.func) not in ("tl.load", "tl.store", "triton.language.load", "triton.language.store"):
        return None
    if call.args:
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg == "pointer"), None)


def load_without_block_start(tree: ast.AST | None) -> dict | None:
    """The one block load of the file's @triton.jit functions whose address has no term from tl.program_id,
    in a function whose stores do have one: `tl.load(w_ptr + tl.arange(0, BLOCK_SIZE), mask=mask)` beside
    `offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)` — every program reads the first block there.
    {line, address (its text), pointer (the address's first name), instead (a name made from both the program
    id and tl.arange that another load or store of the function addresses with, or None)}. None when there is
    no such load, or several (no guess), or no store moves with the program id. Scalar loads
    (`tl.load(a_ptr)`, no tl.arange in the address) are never such a load."""
    if tree is None:
        return None
    found: list[dict] = []
    for kernel in _jit_functions(tree):
        pids = _derived_names(kernel, lambda v: "program_id" in ast.unparse(v))
        lanes = _derived_names(kernel, lambda v: "arange" in ast.unparse(v))

        def moves(expr: ast.AST) -> bool:
            return "program_id" in ast.unparse(expr) or bool(_names_in(expr) & pids)  # noqa: B023

        def block(expr: ast.AST) -> bool:
            return "arange" in ast.unparse(expr) or bool(_names_in(expr) & lanes)  # noqa: B023

        calls = [n for n in ast.walk(kernel) if isinstance(n, ast.Call) and _access_address(n) is not None]
        stores = [c for c in calls if ast.unparse(c.func).endswith("store")]
        if not stores or not all(moves(_access_address(c)) for c in stores):  # type: ignore[arg-type]
            continue
        for call in calls:
            address = _access_address(call)
            assert address is not None
            if call in stores or moves(address) or not block(address):
                continue
            first = next((n.id for n in ast.walk(address) if isinstance(n, ast.Name)), None)
            if first is None or first not in {a.arg for a in kernel.args.args}:
                continue  # a pointer the kernel built itself: not a parameter read at the wrong place
            instead = sorted(
                (c.lineno, name)
                for c in calls
                if c is not call
                for name in _names_in(_access_address(c))  # type: ignore[arg-type]
                if name in pids and name in lanes
            )
            found.append(
                {
                    "line": call.lineno,
                    "address": ast.unparse(address)[:80],
                    "pointer": first,
                    "instead": instead[0][1] if instead else None,
                }
            )
    return found[0] if len(found) == 1 else None


def _input_first_block(
    diagnoses: list,
    exercise,
    got: torch.Tensor,
    inputs: dict,
    params: dict,
    kwargs: dict,
    blocks: dict | None,
    atol: float,
    rtol: float,
    learner_file: str | None,
) -> None:
    """A 1D input with one value per output column (a bias) read from its first block in every column tile:
    the output is the reference recomputed with that input's value j replaced by value j mod B, B a block
    width of the launch below the column count (the input's offsets are tl.arange(0, BLOCK_N) without the
    tile's column start). Only on a mismatch no other check named; cause `input-first-block` with `input`,
    `block`, and where the kernel has exactly one block load whose address takes no term from the program id
    (`load_without_block_start`), its `line`, `address` and `pointer`."""
    diag = next(
        (d for d in diagnoses if d.get("kind") == "mismatch" and d.get("cause") in (None, "all-wrong")), None
    )
    if diag is None or got.dim() != 2 or not got.is_floating_point() or not blocks:
        return
    cols = got.shape[1]
    widths = [
        v
        for v in sorted({v for v in blocks.values() if isinstance(v, int) and not isinstance(v, bool)})
        if 2 <= v < cols and v & (v - 1) == 0
    ]
    if not widths:
        return
    g = got.detach().double()
    for name, value in inputs.items():
        if not (isinstance(value, torch.Tensor) and value.dim() == 1 and value.shape[0] == cols):
            continue
        for width in widths:
            index = torch.arange(cols, device=value.device) % width
            moved = value[index]
            if torch.equal(moved, value):
                continue
            with torch.no_grad():
                try:
                    alt = exercise_env.reference(
                        exercise, dict(inputs, **{name: moved}), params, dict(kwargs)
                    )
                except Exception:  # noqa: BLE001 - a reference that cannot run so: no claim
                    continue
            if not isinstance(alt, torch.Tensor) or tuple(alt.shape) != tuple(got.shape):
                continue
            a = alt.detach().double().to(got.device)
            if not bool(((g - a).abs() <= atol + rtol * a.abs()).all()):
                continue
            load = load_without_block_start(contracts.file_tree(learner_file)) if learner_file else None
            facts: dict = {"input": name, "block": width}
            if load is not None:
                facts.update(line=load["line"], address=load["address"], pointer=load["pointer"])
            diag.update(facts, cause="input-first-block")
            where = (
                f" — line {load['line']} loads it from {load['address']}, an address with no term from "
                "tl.program_id"
                if load is not None
                else ""
            )
            diag["message"] = (
                f"{_head(diag)}: the output is right with {name}[j] replaced by {name}[j mod {width}]: every "
                f"column tile adds the first {width} values of {name}{where}: add the tile's column start to "
                f"{name}'s offsets (the column offsets the store uses)"
            )
            return


def _withdraw_tail(bad: list, cause: str | None, facts: dict, said: str) -> None:
    """Every failing case's `tail-block` claim set to `cause` (with `facts` and the sentence `said` after its
    head): another case showed the tail's mask is not what is wrong."""
    for case in bad:
        diag = case["diagnoses"][0]
        if diag.get("cause") != "tail-block":
            continue
        diag.update(facts, cause=cause)
        diag["message"] = f"{_head(diag).split(', only in the last')[0]}: {said}"


def _all_but_first(first: dict, bad: list, learner_file: str | None) -> bool:
    """Every failing case has program 0 right and every other program wrong, and in one case at least that is
    more than the last block: values that do not follow the program id — cause `all-but-first`, whatever
    the first case said (nothing, or `tail-block`). Where one load of the kernel has an address with no
    program-id term (`load_without_block_start`), that load is named (`line`, `address`, `pointer`,
    `instead`). Each other case's `tail-block` is withdrawn the same way."""
    if first.get("kind") != "mismatch" or first.get("cause") not in (None, "tail-block"):
        return False
    named = [
        (set_, case["diagnoses"][0].get("n_programs"))
        for case in bad
        if (set_ := _wrong_programs(case["diagnoses"][0])) is not None
    ]
    if len(named) != len(bad) or not all(
        isinstance(n, int) and n >= 2 and programs == set(range(1, n)) for programs, n in named
    ):
        return False
    if not any(programs - {n - 1} for programs, n in named):
        return False  # every failing case has two programs: a tail as much as "all but the first"
    load = load_without_block_start(contracts.file_tree(learner_file)) if "line" not in first else None
    facts = dict(load or {})
    said = (
        f"in every failing case program 0 is right and every other program is wrong — line {load['line']} "
        f"loads from {load['address']}, an address with no term from tl.program_id, so every program reads "
        f"the first block of {load['pointer']}: add the program's block start"
        + (f" (use {load['instead']}, as the other accesses do)" if load.get("instead") else "")
        if load
        else "in every failing case program 0 is right and every other program is wrong — what a program "
        "stores must follow its own tl.program_id(0), not a value every program shares"
    )
    first.update(facts, cause="all-but-first")
    first["message"] = f"{_head(first).split(', only in the last')[0]}: {said}"
    _withdraw_tail(bad, "all-but-first", facts, said)
    return True


def _not_the_tail(first: dict, bad: list) -> bool:
    """A tail-block claim that another failing case refutes: there, programs other than the last are wrong
    too (values stored without the pid: n = 17 fails in its last block only, n = 97 in programs 1-3 of 4).
    The other cases' tail-block claims are withdrawn too (cause null)."""
    named = [
        (set_, case["diagnoses"][0].get("n_programs"))
        for case in bad
        if (set_ := _wrong_programs(case["diagnoses"][0])) is not None
    ]
    if not any(isinstance(n, int) and programs - {n - 1} for programs, n in named):
        return False
    head = _head(first).split(", only in the last")[0]
    said = (
        "not only the last block — other failing cases are wrong in earlier programs too, so the tail's mask "
        "is not the cause: check what every program computes and stores"
    )
    first["cause"] = None
    first["message"] = f"{head}: {said}"
    _withdraw_tail(bad, None, {}, said)
    return True


def _default_scale(first: dict, bad: list, good: list, contracts: dict | None) -> bool:
    """Every failing case leaves the scale keyword (contract `scale`) to its default and fits another scale,
    while a case that passes the keyword passes: the scale is applied once — only the default is wrong."""
    spec = (contracts or {}).get("scale") or []
    if len(spec) != 2 or first.get("cause") != "scale":
        return False
    keyword, default = spec
    if not all(
        c["diagnoses"][0].get("cause") == "scale" and keyword not in (c.get("kwargs") or {}) for c in bad
    ):
        return False
    if not any(keyword in (c.get("kwargs") or {}) for c in good):
        return False
    first.update(form="default", default=default)
    first["message"] = (
        f"{_head(first)}: every case that passes {keyword} passes, and every case that leaves it out fails: "
        f"the output equals the reference at {keyword} = {first.get('fitted')} where the default is "
        f"{first.get('right')} — the default is wrong: when {keyword} is None use {default}"
    )
    return True


def _args_order(first: dict, bad: list) -> bool:
    """Part of the output unwritten in every failing case, and the count written equal to one other scalar
    argument (not 0 everywhere): the element count the kernel bounds its stores by received that argument —
    the launch passes its arguments in the wrong order (n_elements and degree swapped)."""
    if len(bad) < 2 or first.get("cause") not in (
        "none-written",
        "masked-off",
        "partial-blocks",
        "tail-block",
    ):
        return False
    written = []
    for case in bad:
        diag = case["diagnoses"][0]
        count, numel = diag.get("count"), diag.get("numel")
        if diag.get("kind") != "unwritten" or not isinstance(count, int) or not isinstance(numel, int):
            return False
        written.append(numel - count)
    names = [
        name
        for name, value in bad[0]["params"].items()
        if all(
            isinstance(c["params"].get(name), int)
            and not isinstance(c["params"].get(name), bool)
            and c["params"][name] == w
            for c, w in zip(bad, written, strict=True)
        )
    ]
    if len(names) != 1 or not any(written):
        return False
    first.update(cause="args-order", param=names[0])
    first["message"] = (
        f"{_head(first)}: in every failing case the kernel wrote exactly {names[0]} elements — the element "
        f"count it bounds its stores by received {names[0]}: check the order of the launch's arguments "
        "against the kernel's parameters"
    )
    return True


def _fixed_grid(bad: list) -> None:
    """The same number of programs in every failing case whose grid-size fact fired, for different numbers of
    blocks: a grid that does not follow n (`grid = (3,)`). Each such fact gets pattern `fixed`."""
    facts = [d for c in bad for d in c["diagnoses"] if d.get("kind") == "grid-size"]
    launched = {d.get("launched") for d in facts}
    expected = {d.get("expected") for d in facts}
    if len(facts) < 2 or len(launched) != 1 or len(expected) < 2:
        return
    for diag in facts:
        diag["pattern"] = "fixed"
        diag["message"] = (
            f"the grid launched {contracts._count(diag.get('launched'), 'program')} for "
            f"{contracts._count(diag.get('expected'), 'block')}: the grid launches the same number in every "
            "case, whatever n — the number of programs must follow n: use triton.cdiv(n, BLOCK_SIZE)"
        )


def _case_patterns(
    cases: list, dtypes: list, contracts: dict | None = None, learner_file: str | None = None
) -> None:
    """Patterns across cases that name a cause one case cannot: only one dtype fails (its range or precision);
    only the cases with several K steps fail (what changes between steps: the pointer advance); only the row
    the lab moved far below 0 fails (`low_row`: the running max's start or the padding); only the cases whose
    loop (`loop = [param, block]`, e.g. keys in blocks of BLOCK_N) takes several steps fail."""
    low_row = (contracts or {}).get("low_row")
    loop = (contracts or {}).get("loop") or []
    plain = [c for c in cases if c.get("kind") is None and isinstance(c.get("params"), dict)]
    bad = [c for c in plain if not c.get("passed") and c.get("diagnoses")]
    good = [c for c in plain if c.get("passed")]
    if not bad:
        return
    first = bad[0]["diagnoses"][0]
    _fixed_grid(bad)
    _n_minus_one(bad)
    if first.get("cause") == "input-axis":  # one case already named the input and its axis
        return
    if _default_scale(first, bad, good, contracts):
        return
    if _far_rows_only(first, bad, good):
        return
    rows = [(c.get("map_grid") or {}).get("n_rows") or 0 for c in bad]
    if low_row and all(_only_row_0(c) for c in bad) and max(rows) > 1:
        first.update(cause="low-row", input=low_row)
        first["message"] = (
            f"{_head(first)}: only row 0 is wrong, and the lab moved that row of {low_row} to [-121, -119), "
            "where every exp underflows to 0 — the running max must start at -inf (not 0) and padding must "
            "load as -inf, so that the row's own max is what gets subtracted"
        )
        return
    if _args_order(first, bad):
        return
    if _all_but_first(first, bad, learner_file):
        return
    if first.get("cause") == "tail-block" and _not_the_tail(first, bad):
        return
    if not good:
        return
    # every failing case nearly right (each wrong element within a few tolerances): precision lost on the way,
    # which grows with the steps — not something a step carries wrongly; a one-dtype failure is still named
    nearly = all(c["diagnoses"][0].get("near_miss") for c in bad)
    if not nearly:  # one case nearly right (often n=1) while another is far off: no near miss to speak of
        for case in bad:
            diag = case["diagnoses"][0]
            if diag.pop("near_miss", None) is not None and "every wrong element is within" in str(
                diag.get("message", "")
            ):
                diag["message"] = _head(diag)

    def variant(case: dict) -> dict:  # the wrapper's keywords and the optional inputs passed ("@with")
        return {
            k: v for k, v in (case.get("kwargs") or {}).items() if k == "@with" or not str(k).startswith("@")
        }

    def loop_steps(case: dict) -> int | None:
        if len(loop) != 2:
            return None
        size, block = case["params"].get(loop[0]), (case.get("meta") or {}).get(loop[1])
        if isinstance(size, int) and isinstance(block, int) and block > 0:
            return -(-size // block)
        return None

    if _masked_block(first, bad, good, loop, loop_steps, variant):
        return
    if (
        len(loop) == 2
        and not nearly
        and first.get("cause") in (None, "all-wrong", "softmax", "size-threshold")
        and all((loop_steps(c) or 0) > 1 for c in bad)
        and any(loop_steps(c) == 1 for c in good)
        and all(c.get("passed") for c in plain if loop_steps(c) == 1)
    ):
        first.update(cause="loop-steps", param=loop[0], block=loop[1])
        first["message"] = (
            f"{_head(first)}: every case whose loop takes one step ({loop[0]} ≤ {loop[1]}) passes and every "
            f"failing case takes several — check what carries from one {loop[1]} step to the next: the "
            "pointers' advance and the running state (max, sum, accumulator rescaled when the max grows)"
        )
        if not first.get("line"):
            _loop_steps_slip(first, bad, loop_steps, learner_file)
        return

    if first.get("kind") not in ("mismatch", "nan") or first.get("cause") not in (
        None,
        "all-wrong",
        "softmax",
    ):
        return
    failing = {c.get("dtype") for c in bad}
    others = {c.get("dtype") for c in plain} - failing
    # a float32-only failure is 16-bit rounding only when the error is of that size (fp16 rounds at 2^-11,
    # bf16 at 2^-8): a 2e-5 error in float32 alone is a small bug that 16-bit tolerances hide, not a cast
    small = (bad[0].get("max_rel_err") or 0) < 1e-4 and failing <= {"float32", "float64"}
    # both 16-bit types failing while float32 passes is the same pattern (a random bfloat16 case that is no
    # near miss used to leave such a file with a bare count: probe round 8)
    sixteen = len(failing) == 2 and failing == {"float16", "bfloat16"} and "float32" in others
    if (
        (len(failing) == 1 or sixteen)
        and len(dtypes) > 1
        and others
        and others <= {c.get("dtype") for c in good}
        and not small
    ):
        dtype = " and ".join(sorted(str(d) for d in failing))
        wide = failing <= {"float32", "float64"}
        passing = sorted(str(d) for d in others)
        if wide and not any(c["diagnoses"][0].get("lossy16", True) for c in bad):
            # no 16-bit type, no dot in the file, and the values are no 16-bit numbers: the float32 case is
            # the only one strict enough to see a formula that differs by a little everywhere
            first.update(cause="formula", dtype=dtype, passing=passing)
            first["message"] = (
                f"{_head(first)}: only {dtype} cases fail ({', '.join(passing)} pass), and nothing in "
                "this kernel rounds to 16 bits — the formula differs a little from the reference everywhere "
                "(another approximation, e.g. the tanh form for the exact erf or the other way round, a "
                "rounded constant, a term left out), which only the strict float32 tolerance sees"
            )
            return
        first.update(cause="dtype-only", dtype=dtype, passing=passing)
        # the kernel's own 16-bit cast: its line and the store's pointer (unless a line is already named)
        cast = _narrow_cast(learner_file) if wide and "line" not in first else None
        if cast is not None:
            first.update(cast)
        target = (
            f"{cast['pointer']}.dtype.element_ty" if cast and cast.get("pointer") else "its pointer's type"
        )
        first["message"] = (
            (
                f"{_head(first)}: only {dtype} cases fail ({', '.join(first['passing'])} pass) — line "
                f"{first['line']} rounds to 16 bits ({cast['cast']}), so a {dtype} output keeps only 16-bit "
                f"precision: keep the output's own type ({target})"
            )
            if cast is not None
            else (
                f"{_head(first)}: only {dtype} cases fail ({', '.join(first['passing'])} pass) — the "
                "result is "
                "rounded to a 16-bit type somewhere (a .to(tl.float16) / tl.bfloat16 cast or a 16-bit "
                "intermediate): "
                "cast to output_ptr.dtype.element_ty"
            )
            if wide
            else (
                f"{_head(first)}: only {dtype} cases fail ({', '.join(first['passing'])} pass) — "
                f"{dtype} {'overflow or lose' if sixteen else 'overflows or loses'} precision in an "
                "intermediate: compute in float32 "
                "(.to(tl.float32)) "
                "before the arithmetic and round once at the store"
            )
        )
        return

    def steps(case: dict) -> int | None:
        k, block = case["params"].get("K"), (case.get("meta") or {}).get("BLOCK_K")
        if isinstance(k, int) and isinstance(block, int) and block > 0:
            return -(-k // block)
        return None

    if not nearly and all((steps(c) or 0) > 1 for c in bad) and all(steps(c) == 1 for c in good):
        descriptors = "make_tensor_descriptor" in ((contracts or {}).get("calls_any") or [])
        first.update(cause="k-steps", descriptors=descriptors)
        only = first.get("first_step")
        if isinstance(only, dict) and not descriptors:
            if only.get("line"):
                first["line"] = only["line"]
            var, step = only.get("var"), only.get("step")
            scaled = (
                f"line {only['line']} multiplies {var} by {step} ({only['code']}), but the loop (line "
                f"{only['loop_line']}) already steps {var} by {step}: {var} is an offset, not a step count, "
                f"so from the second step on what that line computes is {step} times too far — use {var} "
                f"itself (the K mask: K - {var})"
                if only.get("line")
                else "check what each later step loads: the K mask (what is left of K), the loop's range and "
                "how the A and B pointers advance"
            )
            first["message"] = (
                f"{_head(first)}: every case with one K step (K ≤ BLOCK_K) passes and every case with "
                f"several fails, and the result is exactly the first K step's product: the later steps add "
                f"nothing — {scaled}"
            )
            return
        first["message"] = (
            f"{_head(first)}: every case with one K step (K ≤ BLOCK_K) passes and every case "
            "with several fails — check what changes from one K step to the next: "
            + (
                "the coordinates each descriptor load takes, [row, column] of its own tensor (A's tile at "
                "[off_m, k * BLOCK_K], B's at [k * BLOCK_K, off_n], or [off_n, k * BLOCK_K] for B.T)"
                if descriptors
                else "how the A and B pointers advance (BLOCK_K * stride_ak, BLOCK_K * stride_bk) and the K "
                "mask"
            )
        )
        return

    failing_variants = [variant(c) for c in bad]
    shared = failing_variants[0]
    if (
        not nearly
        and shared
        and all(v == shared for v in failing_variants)
        and any(variant(c) != shared for c in good)
    ):
        # every failing case ran with the same keywords and every case without them passed (some with them
        # may pass too: a one-key softmax is 1 at any scale): those keywords lead to the bug
        first.update(cause="variant-only", variant=shared)
        said = ", ".join("+".join(v) if k == "@with" else f"{k}={v}" for k, v in shared.items())
        first["message"] = (
            f"{_head(first)}: every failing case was called with {said}, and every case without them "
            "passes — check what those keywords change in your wrapper and kernel"
        )


def _n_minus_one(bad: list) -> None:
    """A mean of squares divided by N - 1 (`scaled` with `n_minus_one`) is claimed across cases: every
    failing case with a steady factor must show √((N − 1)/N) for its own N, or none keeps the claim. When it
    holds, the NaN of a case with N = 1 on the lab's zeroed row (`zero-row`: "eps is missing") is 0/0 from
    that division, eps or not (cause `n-minus-one`)."""
    heads = [c["diagnoses"][0] for c in bad]
    matched = [(c, d) for c, d in zip(bad, heads, strict=True) if d.get("n_minus_one")]
    if not matched:
        return
    # the size parameter that is N: the one whose value is each matched case's N
    named = set.intersection(
        *({k for k, v in (c.get("params") or {}).items() if v == d["n_minus_one"]} for c, d in matched)
    )

    def contradicts(case: dict, d: dict) -> bool:
        """A steady factor that is not √((N − 1)/N) for this case's N. A 16-bit case (or a large N, where
        the gap is tiny) measures its factor only to about 1e-3: within that it agrees (in CI a random case
        withdrew a true claim)."""
        if d.get("cause") != "scaled" or d.get("n_minus_one"):
            return False
        n = (case.get("params") or {}).get(next(iter(named))) if len(named) == 1 else None
        factor = d.get("factor")
        if not isinstance(n, int) or n < 2 or not isinstance(factor, (int, float)):
            return True
        expected = ((n - 1) / n) ** 0.5
        return abs(float(factor) - expected) > 0.1 * (1.0 - expected) + 2e-3

    if any(contradicts(c, d) for c, d in zip(bad, heads, strict=True)):
        for _, d in matched:  # another factor elsewhere: the division by N - 1 is not what they share
            d.pop("n_minus_one", None)
            if d.pop("divisor", None) is not None:  # the line was the division's
                d.pop("line", None)
            factor = d.get("factor") or 0.0
            d["message"] = (
                f"{_head(d)}: every element is off by the same factor ({factor:.4g} times the right value) "
                "— a missing or extra scale: a sum where a mean belongs (divide by N), a square root, or a "
                "constant"
            )
        return
    if len(named) != 1:
        return
    (key,) = named
    n_line = next((d.get("line") for _, d in matched if d.get("line")), None)
    divisor = next((d.get("divisor") for _, d in matched if d.get("divisor")), None)
    example = matched[0][1]
    for case, d in zip(bad, heads, strict=True):
        if d.get("kind") != "nan" or d.get("cause") != "zero-row" or (case.get("params") or {}).get(key) != 1:
            continue
        d.update(cause="n-minus-one", param=key, n=example["n_minus_one"], factor=example["factor"])
        if n_line is not None:
            d.update(line=n_line, divisor=divisor)
        at = f" (line {n_line}: / ({divisor}))" if n_line is not None else ""
        d["message"] = (
            f"{_head(d)}: row 0 of {d.get('input') or 'x'} is all zeros and {key} = 1 — the mean of "
            f"squares divides 0 by {key} − 1 = 0{at}, and 0/0 is NaN whatever eps is; the cases with "
            f"{key} > 1 show the same divisor ({key} = {example['n_minus_one']}: every element "
            f"{example['factor']:.4g} times the right value, √(({key} − 1)/{key})): divide by {key}"
        )


def _masked_block(first: dict, bad: list, good: list, loop: list, loop_steps, variant) -> bool:
    """Every failing case is inf/NaN in exactly the first rows of each sequence (`lead_rows`, from the values)
    and was called with the same keywords, while every case without them passes, several loop steps too: the
    rows a mask (causal) lets see the fewest positions meet a block where every position is masked — their
    running max is still -inf there and -inf - (-inf) is NaN (cause `masked-block`)."""
    if len(loop) != 2 or first.get("kind") != "nan" or first.get("cause") not in (None, "softmax"):
        return False
    heads = [c["diagnoses"][0] for c in bad]
    if not all(d.get("kind") == "nan" and d.get("lead_rows") for d in heads):
        return False
    shared = variant(bad[0])
    if not shared or any(variant(c) != shared for c in bad):
        return False
    others = [c for c in good if variant(c) != shared]
    if not any((loop_steps(c) or 0) > 1 for c in others):
        return False
    lead = max(int(d["lead_rows"]) for d in heads)
    first.update(cause="masked-block", variant=shared, lead_rows=lead, param=loop[0], block=loop[1])
    said = ", ".join(f"{k}={v}" for k, v in shared.items())
    first["message"] = (
        f"{_head(first)}: only the cases called with {said} fail (every other case passes, with several "
        f"{loop[1]} steps too), and the inf/NaN rows are the first {lead} along {loop[0]} — under a causal "
        "mask the rows that see the fewest positions: a block where the mask hides every position of such "
        "a row leaves its running max at -inf, and exp2(-inf - (-inf)) is NaN — visit first a block the row "
        "can see (walk the blocks upward from 0), or keep the subtracted max finite (tl.where(m_new == "
        "float('-inf'), 0.0, m_new))"
    )
    return True


def _zero_row(exercise, diagnoses: list) -> None:
    """The lab zeroed row 0 of an input to make eps matter (`zero_row` contract): inf/NaN in row 0 is eps
    missing (or added too late), not overflow — in a forward's output and in a gradient alike."""
    zeroed = (exercise.verify.contracts or {}).get("zero_row")
    lifted = (exercise.verify.contracts or {}).get("high_row")
    for diag in diagnoses:
        if zeroed and diag.get("kind") == "nan" and 0 in (diag.get("rows") or []) and not diag.get("cause"):
            diag.update(cause="zero-row", input=zeroed)
            diag["message"] += f" (row 0 of {zeroed} is all zeros: eps is missing or added too late)"
        in_row_0 = 0 in (diag.get("rows") or []) or [0, 0] in (diag.get("ranges") or [])
        if lifted and diag.get("kind") == "nan" and in_row_0 and not diag.get("cause"):
            diag.update(cause="high-row", input=lifted)
            diag["message"] += (
                f" (the lab lifted row 0 of {lifted} by 100: exp overflows there unless the row's max is "
                "subtracted first)"
            )


#: the mismatch causes a layout read replaces: a guess at the formula, or a pattern the misplaced columns make
_LAYOUT_CAUSES = (None, "all-wrong", "scaled", "permuted", "formula")


def _layout_read(diagnoses: list, stats: dict | None, learner_file: str | None, names, got) -> None:
    """A wrong output stored by a launch whose load read a buffer an earlier launch of the same call stored,
    in another layout: most loaded elements were stored at another column than the one the loading program
    stores (memcheck `layout_reads`: stage 2 reading the [P, N] partials at `cols * P + p`). Said on the
    mismatch of the output of that store's shape (`output_shape`), when nothing more specific explained it:
    cause `partials-transposed` at the load's line, with the store's line of the earlier launch."""
    records = _learner_records(stats, "layout_reads", learner_file)
    if not records:
        return
    got = tuple(got) if isinstance(got, (tuple, list)) else (got,)
    for diag in diagnoses:
        if diag.get("kind") != "mismatch" or diag.get("cause") not in _LAYOUT_CAUSES:
            continue
        index = list(names).index(diag["output"]) if diag.get("output") in list(names) else None
        value = got[index] if index is not None and index < len(got) else None
        if not isinstance(value, torch.Tensor):
            continue
        record = next((r for r in records if list(value.shape) == list(r.get("output_shape") or [])), None)
        if record is None:
            continue
        example = record.get("example") if isinstance(record.get("example"), list) else None
        diag.update(
            cause="partials-transposed",
            line=record.get("line"),
            kernel=record.get("kernel"),
            buffer=record.get("argument"),
            store_kernel=record.get("store_kernel"),
            store_line=record.get("store_line"),
            row=_int(record.get("row")),
            lanes=_int(record.get("lanes")),
            misread=_int(record.get("count")),
            column=example[0] if example else None,
            read_column=example[1] if example else None,
        )
        kernel, line, buffer = record.get("kernel"), record.get("line"), record.get("argument")
        writer, store_line = record.get("store_kernel"), record.get("store_line")
        diag["message"] = (
            f"{_head(diag)}: {kernel} (line {line}) reads {buffer} in another layout than {writer} stored it "
            f"(line {store_line}, rows of {record.get('row')}): {record.get('count')} of "
            f"{record.get('lanes')} loaded elements were stored for another column than the one the "
            "loading program writes — it reads another column's partials: index the buffer the way the "
            "first kernel stored it "
            "(p * N + cols)"
        )


#: the mismatch causes a recomputed statistic replaces: nothing, or a guess the wrong per-row scale makes
_RECOMPUTED_CAUSES = (None, "all-wrong", "scaled", "row-scaled")


def _recomputed_stat(diagnoses: list, unread: object, mine: list, learner_file: str | None) -> None:
    """A wrong gradient from a backward that never reads what the forward saved (the runner's fact
    `forward_unread`: tensors the learner's forward kernels were handed, neither inputs nor outputs — rstd —
    that no backward kernel was handed) while a kernel launched in the backward computes a square root itself
    (`rstd = tl.rsqrt(...)`): it recomputes the statistic, and its formula is the first suspect. Cause
    `stat-recomputed` at that line, with the forward's own rsqrt/sqrt line when the file has one; said on the
    first gradient mismatch nothing more specific explained. A backward that recomputes it right passes."""
    if not _int(unread) or not learner_file:
        return
    diag = next(
        (
            d
            for d in diagnoses
            if d.get("kind") == "mismatch"
            and str(d.get("output") or "").startswith("grad_")
            and d.get("cause") in _RECOMPUTED_CAUSES
        ),
        None,
    )
    if diag is None:
        return
    backward = {str(x.get("kernel")) for x in mine if x.get("phase") == "backward"}
    forward = {str(x.get("kernel")) for x in mine if x.get("phase") == "forward"} - backward
    found = _root_lines(learner_file, backward)
    if not found:
        return
    (line, source, kernel), *_ = found
    before = _root_lines(learner_file, forward)
    diag.pop("rescale", None)  # a row-scaled guess's source fact, if it had one
    diag.update(cause="stat-recomputed", line=line, source=source, kernel=kernel, unread=_int(unread))
    if before:
        diag.update(forward_line=before[0][0], forward_source=before[0][1], forward_kernel=before[0][2])
    where = f" (line {before[0][0]}: {before[0][1]})" if before else ""
    diag["message"] = (
        f"{_head(diag)}: your backward kernel {kernel} recomputes at line {line} ({source}) what the forward "
        "saved, instead of using the forward's — no backward kernel is handed the forward's saved tensor — "
        f"compare with the forward's formula{where}, or pass the saved rstd to the backward"
    )


_ROOTS = ("rsqrt", "sqrt")


def _root_lines(path: str, kernels: set[str]) -> list[tuple[int, str, str]]:
    """(line, source, kernel) of each assignment in the named @triton.jit functions of the file whose value
    calls a square root (tl.rsqrt, tl.sqrt, libdevice's, math's), in file order."""
    tree = contracts.file_tree(path)
    if tree is None or not kernels:
        return []
    found = []
    for function in tree.body:
        if not isinstance(function, ast.FunctionDef) or function.name not in kernels:
            continue
        for node in ast.walk(function):
            if not isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)) or node.value is None:
                continue
            calls = [
                c
                for c in ast.walk(node.value)
                if isinstance(c, ast.Call) and getattr(c.func, "attr", getattr(c.func, "id", None)) in _ROOTS
            ]
            if calls:
                found.append((node.lineno, ast.unparse(node)[:100], function.name))
    return sorted(found)


def _one_partial(
    exercise,
    plan,
    inputs,
    params,
    kwargs,
    got,
    tols: dict,
    mine: list,
    diagnoses: list,
    learner_file: str | None = None,
) -> None:
    """A weight's gradient (w [N] beside x [M, N]) is a sum over the rows: a two-stage backward keeps one
    partial row per program (stage 1) and adds the P partial rows (stage 2). A failing grad_w that equals the
    sum over program 0's rows alone (rows 0, P, 2P, … or the first cdiv(M, P) rows, P read from the
    backward's launches) is stage 2 reading partial[0] only (cause `one-partial`); at M = P that is row 0
    alone, all zeros under the `zero_row` contract — 'is the result stored?' would point away from it.
    One that equals the whole sum plus program 0's share is that partial added twice (`partial-twice`: a
    stage 2 that starts from partial[0] and then adds every partial from 0); the whole sum less the first or
    the last program's share is a partial left out (`partial-missing`: a loop over the partials that starts
    at 1 or stops at P - 1). One that equals the sum over each program's last row alone, while some program
    has several rows, is stage 1's accumulator re-created inside its row loop (`partial-last-row`, with the
    line of that `tl.zeros` when the file has one)."""
    got = tuple(got) if isinstance(got, (tuple, list)) else ()
    for index, name in enumerate(plan.names):
        diag = next((d for d in diagnoses if d.get("output") == name and d.get("kind") == "mismatch"), None)
        weight = inputs.get(name.removeprefix("grad_")) if name.startswith("grad_") else None
        value = got[index] if index < len(got) else None
        if diag is None or not isinstance(weight, torch.Tensor) or weight.dim() != 1:
            continue
        if not isinstance(value, torch.Tensor) or value.shape != weight.shape:
            continue
        rows_of = next(
            (
                v
                for v in inputs.values()
                if isinstance(v, torch.Tensor) and v.dim() == 2 and v.shape[1] == weight.shape[0]
            ),
            None,
        )
        if rows_of is None or rows_of.shape[0] < 2:
            continue
        m = int(rows_of.shape[0])
        counts = sorted(
            {
                int(launch["grid"][0])
                for launch in mine
                if launch.get("phase") == "backward"
                and launch.get("grid")
                and 1 < int(launch["grid"][0]) <= m
            }
        )
        atol, rtol = outputs._tolerance(tols, name)
        shares = _PartialShares(exercise, plan, inputs, params, kwargs, index, value, m)
        for programs in counts:
            found = shares.explain(programs, atol, rtol)
            if found is not None:
                cause, rows, program = found
                if cause == "partial-last-row":
                    reset = _reset_in_loop(learner_file)
                    if reset is not None:
                        diag.update(line=reset[0], name=reset[1], reset=reset[2])
                _partial_said(diag, name, cause, programs, rows, program, m)
                return


class _PartialShares:
    """The reference's `index`-th output with the upstream gradient on some rows only (`share`), compared
    with the learner's `value` (`explain`)."""

    def __init__(self, exercise, plan, inputs, params, kwargs, index: int, value: torch.Tensor, m: int):
        self.args = (exercise, plan, inputs, params, kwargs)
        self.index, self.value, self.m = index, value, m
        self.whole: torch.Tensor | None = None

    def share(self, rows: list) -> torch.Tensor | None:
        keep = torch.zeros(self.m, dtype=torch.float32)
        keep[rows] = 1.0
        part = _rows_reference(*self.args, keep)
        ref = part[self.index] if part is not None and self.index < len(part) else None
        if not isinstance(ref, torch.Tensor) or ref.shape != self.value.shape:
            return None
        return ref.to(self.value.device).float()

    def explain(self, programs: int, atol: float, rtol: float) -> tuple[str, list, int] | None:
        """(cause, rows, program) of the first reading that holds at this program count, or None."""
        m, per = self.m, math.ceil(self.m / programs)

        def matches(target: torch.Tensor | None) -> bool:
            return target is not None and torch.allclose(self.value.float(), target, atol=atol, rtol=rtol)

        first_rows = (list(range(0, m, programs)), list(range(per)))
        for rows in first_rows:
            if matches(self.share(rows)):
                return "one-partial", rows, 0
        if per > 1:  # some program has several rows: its partial holds only the last one (a reset each row)
            strided = [max(range(p, m, programs)) for p in range(min(programs, m))]
            blocks = [min(m, (p + 1) * per) - 1 for p in range(programs) if p * per < m]
            for rows in (sorted(strided), blocks):
                if len(rows) < m and matches(self.share(rows)):
                    return "partial-last-row", rows, programs - 1
        if self.whole is None:
            self.whole = self.share(list(range(m)))
        if self.whole is None:
            return None
        last = programs - 1
        last_rows = (list(range(last, m, programs)), list(range(last * per, min(m, (last + 1) * per))))
        for program, layouts, sign, cause in (
            (0, first_rows, 1.0, "partial-twice"),
            (0, first_rows, -1.0, "partial-missing"),
            (last, last_rows, -1.0, "partial-missing"),
        ):
            for rows in layouts:
                part = self.share(rows) if rows else None
                if part is not None and matches(self.whole + sign * part):
                    return cause, rows, program
        return None


def _partial_said(diag: dict, name: str, cause: str, programs: int, rows: list, program: int, m: int) -> None:
    """Facts (and the English sentence) of a grad_w that one program's partial explains (`_one_partial`)."""
    diag.update(cause=cause, programs=programs, partial_rows=rows[:8], rows_count=len(rows), program=program)
    shown = ", ".join(str(r) for r in rows[:4]) + (", …" if len(rows) > 4 else "")
    which = f"{'row' if len(rows) == 1 else 'rows'} {shown} of {m}"
    head = ": ".join(str(diag.get("message", "")).split(": ", 2)[:2])
    if cause == "one-partial":
        diag["message"] = (
            f"{head}: {name} is only program 0's share of the sum ({which}, with {programs} "
            "programs), so stage 2 read partial[0] alone — add the partial rows of every program "
            "(for p in range(P): total += partial[p])"
        )
    elif cause == "partial-last-row":
        where = (
            f"the accumulator {diag['name']} is re-created inside the row loop (line {diag['line']}: "
            f"{diag['reset']}): create it once, before the loop"
            if diag.get("line") and diag.get("reset")
            else "is the accumulator re-created inside the row loop? Create it once, before the loop"
        )
        diag["message"] = (
            f"{head}: {name} is the sum of each program's last row alone ({which}, with {programs} "
            "programs): right while every program has one row, wrong once a program has several — each "
            f"partial keeps only the last row it saw: {where}"
        )
    elif cause == "partial-twice":
        diag["message"] = (
            f"{head}: {name} is the whole sum plus program {program}'s share once more ({which}, with "
            f"{programs} programs): stage 2 adds partial[{program}] twice — a partial loaded before the "
            "loop that the loop then adds again; add each partial row exactly once"
        )
    else:
        diag["message"] = (
            f"{head}: {name} is the whole sum without program {program}'s share ({which}, with {programs} "
            f"programs): stage 2 never adds partial[{program}] — the loop over the partials must run over "
            "all of them (for p in range(0, P))"
        )


_ACC_STARTS = frozenset({"zeros", "full", "zeros_like", "full_like"})


def _same_level(stmts: list):
    """The nodes of these statements, but not of a loop nested in them (an inner K loop's sum is its own)."""
    for stmt in stmts:
        if isinstance(stmt, (ast.For, ast.While)):
            continue
        if isinstance(stmt, ast.If):
            yield stmt.test
            yield from _same_level(stmt.body)
            yield from _same_level(stmt.orelse)
            continue
        yield from ast.walk(stmt)


def _reset_in_loop(path: str | None) -> tuple[int, str, str] | None:
    """(line, name, source) of an accumulator created inside a loop that adds onto it there as well:
    `dw_acc = tl.zeros(...)` in `for row in ...:` beside `dw_acc += ...` (or `dw_acc = dw_acc + ...`) in that
    loop, not in a loop nested in it (a tile's accumulator summed by its K loop is right): each step starts
    from zero again. The first such assignment, or None."""
    tree = contracts.file_tree(path) if path else None
    if tree is None:
        return None
    for loop in ast.walk(tree):
        if not isinstance(loop, (ast.For, ast.While)):
            continue
        body = list(_same_level(loop.body))
        added = {
            n.target.id
            for n in body
            if isinstance(n, ast.AugAssign) and isinstance(n.op, ast.Add) and isinstance(n.target, ast.Name)
        } | {
            n.targets[0].id
            for n in body
            if isinstance(n, ast.Assign)
            and len(n.targets) == 1
            and isinstance(n.targets[0], ast.Name)
            and isinstance(n.value, ast.BinOp)
            and isinstance(n.value.op, ast.Add)
            and n.targets[0].id in _names_in(n.value)
        }
        for stmt in loop.body:  # the loop's own statements: a reset nested in an inner loop is that loop's
            if (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
                and stmt.targets[0].id in added
                and isinstance(stmt.value, ast.Call)
                and name_of(stmt.value.func) in _ACC_STARTS
            ):
                return stmt.lineno, stmt.targets[0].id, ast.unparse(stmt)
    return None


def _rows_reference(
    exercise, plan, inputs: dict, params: dict, kwargs: dict, keep: torch.Tensor
) -> tuple | None:
    """The reference's outputs with the upstream gradient kept on the rows `keep` marks (1.0) only."""
    import dataclasses

    sub = dataclasses.replace(plan)
    base = plan.upstream

    def upstream(out: torch.Tensor) -> torch.Tensor:
        dy = base(out)
        if out.dim() < 1 or out.shape[0] != keep.numel():
            return dy
        return dy * keep.to(device=dy.device, dtype=dy.dtype).view(-1, *([1] * (out.dim() - 1)))

    sub.__dict__["upstream"] = upstream
    try:
        return sub.reference(exercise, dict(inputs), params, kwargs)
    except Exception:  # a reference that cannot run on these rows: no claim
        return None


#: the unwritten-region causes that guess at the grid or the tile map; elements stored twice beside them say
#: the programs wrote into the same place instead
_REACH_CAUSES = ("rows-short", "columns-short", "tiles", "grid-short", "one-program", "head", "scattered")


def _overlapped(diagnoses: list, stats: dict | None, learner_file: str | None) -> None:
    """Unwritten elements while the interpreter saw several programs of one launch store the same elements
    (memcheck `overlaps`): the grid reached every row; the programs' store offsets coincide (a store without
    the program's row offset) — the grid guess ("check the grid's row axis") would point away from it."""
    overlaps = _learner_records(stats, "overlaps", learner_file)
    if not overlaps:
        return
    worst = max(overlaps, key=lambda o: _int(o.get("count")))
    for diag in diagnoses:
        if diag.get("kind") in ("mismatch", "nan") and diag.get("cause") in (None, "all-wrong", "acc-reset"):
            # (a split-K whose programs each store their partial looks like "only the last K step" too, but an
            # accumulator reset in the loop makes no two programs store the same element)
            # wrong values where programs wrote over each other: the last store wins, in an order no GPU keeps
            diag.update(
                cause="stored-over", overlap_argument=worst.get("argument"), overlap_count=worst.get("count")
            )
            diag["message"] = (
                f"{_head(diag)}: {worst.get('count')} elements of {worst.get('argument')} were stored by "
                "more than one program of one launch, and the last store wins (in an order a GPU does not "
                "keep): a program's store reaches into another program's part — mask each store to the "
                "program's own rows and columns (a block past the end of a segment, e.g. one head's last "
                "query block running into the next head's rows of a flat [B*H*S, D] tensor)"
            )
            continue
        if diag.get("kind") == "unwritten" and diag.get("cause") in _REACH_CAUSES:
            diag.update(
                cause="overlap", overlap_argument=worst.get("argument"), overlap_count=worst.get("count")
            )
            diag["message"] = (
                f"{_head(diag)}: {worst.get('count')} elements of {worst.get('argument')} were stored by "
                "more than one program, so the programs write into the same place — the store's offset "
                "misses each program's own rows (pid * stride, or row * N)"
            )
            start = contracts.unscaled_start(worst.get("file"), worst.get("kernel"))
            if start is not None:  # `rows = pid + tl.arange(0, ROWS)`: program p starts at p, not p * ROWS
                line, text, size = start
                diag.update(line=line, start_text=text, start_size=size)
                diag["message"] = (
                    f"{_head(diag)}: {worst.get('count')} elements of {worst.get('argument')} were stored by "
                    f"more than one program: line {line} ({text}) starts program p at index p itself, so it "
                    f"covers p .. p + {size} - 1 and overlaps its neighbours, and the grid's programs stop "
                    f"short of the end — multiply the program id by {size}: tl.program_id(0) * {size} + "
                    f"tl.arange(0, {size})"
                )


def _reorder_case(cases: list) -> int | None:
    """The case a deterministic exercise runs twice on the interpreter, the second time with its programs in
    reverse order: a float32 case (fp32 keeps the last bits a changed order moves), the largest of at most
    4096 elements (several programs, and a rerun of tens of milliseconds: 12/rms-norm-backward's 33 x 300
    would add ~130 ms to a 1.3 s verify), else the smallest. Once per verify."""

    def size(params: dict | None) -> int:
        return _volume(params or {}, set(params or {}))

    if not cases:
        return None
    pool = [i for i in range(len(cases)) if cases[i][1] == "float32"] or list(range(len(cases)))
    small = [i for i in pool if size(cases[i][0]) <= 4096]
    if small:
        return max(small, key=lambda i: size(cases[i][0]))
    return min(pool, key=lambda i: size(cases[i][0]))


def _learner_records(stats: dict | None, key: str, learner_file: str | None) -> list[dict]:
    """The memcheck records under `key` (races, overlaps) made by kernels of the learner's file."""
    return [
        record
        for record in (stats or {}).get(key) or []
        if isinstance(record, dict) and (not learner_file or same_file(record.get("file"), learner_file))
    ]


def _races(stats: dict, learner_file: str | None) -> list[dict]:
    """The interpreter's race records as diagnoses, for the learner's kernels. `races`: elements that several
    programs of one launch loaded and stored without atomics (a GPU loses updates there). `cross_reads`:
    elements one program loaded and another stored in one launch without atomics (a GPU may run the load
    before the store). The interpreter, running programs one by one, computes the right values in both."""
    found = []
    for race in _learner_records(stats, "races", learner_file):
        count, arg = _int(race.get("count")), race.get("argument")
        programs = [p for p in race.get("programs") or [] if isinstance(p, list)][:2]
        found.append(
            {
                "kind": "race",
                "kernel": race.get("kernel"),
                "argument": arg,
                "count": count,
                "programs": programs,
                "line": race.get("line"),
                "message": f"{count} elements{' of ' + str(arg) if arg else ''} are loaded, changed and "
                f"stored back by more than one program of one {race.get('kernel')} launch (programs "
                f"{' and '.join(str(p) for p in programs)}), without atomics: on a GPU one program's store "
                "overwrites another's update — give each program its own slice or use tl.atomic_add",
            }
        )
    for read in _learner_records(stats, "cross_reads", learner_file):
        count, arg = _int(read.get("count")), read.get("argument")
        reader, writer = read.get("reader"), read.get("writer")
        found.append(
            {
                "kind": "cross-program-read",
                "kernel": read.get("kernel"),
                "argument": arg,
                "count": count,
                "reader": reader if isinstance(reader, list) else None,
                "writer": writer if isinstance(writer, list) else None,
                "line": read.get("line"),
                "store_line": read.get("store_line"),
                "stored": read.get("stored") if read.get("stored") in ("before", "after") else None,
                "message": f"program {reader} loads {count} elements{' of ' + str(arg) if arg else ''} that "
                f"program {writer} stores in the same {read.get('kernel')} launch, without atomics: on a GPU "
                "the load may run before or after that store — read them in a second launch",
            }
        )
    for read in _learner_records(stats, "atomic_reads", learner_file):
        count, arg = _int(read.get("count")), read.get("argument")
        reader, writer = read.get("reader"), read.get("writer")
        line, atomic_line = read.get("line"), read.get("atomic_line")
        found.append(
            {
                "kind": "cross-program-read",
                "cause": "read-during-atomics",
                "kernel": read.get("kernel"),
                "argument": arg,
                "count": count,
                "reader": reader if isinstance(reader, list) else None,
                "writer": writer if isinstance(writer, list) else None,
                "line": line,
                "atomic_line": atomic_line,
                "message": f"line {line}: program {reader} loads {count} "
                f"element{'' if count == 1 else 's'}{' of ' + str(arg) if arg else ''} that other programs "
                f"of the same {read.get('kernel')} launch update with an atomic (line {atomic_line}; program "
                f"{writer} did so after this load): it read the shared value before every program had "
                "updated it — a program cannot wait for the others of its launch: update in a first launch "
                "and read the result in a second one",
            }
        )
    return found


def _padding_reached(diagnoses: list, stats: dict | None, padding: object = None) -> None:
    """inf/NaN in the output while a load without other= had lanes masked off (the interpreter's checker fills
    them with NaN, where a GPU leaves them undefined): the padding reached the result — name that load. Not
    when the runner's second run, with that padding left 0, kept every inf/NaN (`padding` False): then the
    arithmetic makes them."""
    if padding is False:
        return
    padded = stats.get("padded") if isinstance(stats, dict) else None
    lines = [
        p["line"]
        for p in padded or []
        if isinstance(p, dict) and isinstance(p.get("line"), int) and not isinstance(p.get("line"), bool)
    ]
    if not lines:
        return
    for diag in diagnoses:
        if diag.get("kind") == "nan" and diag.get("cause") in (None, "softmax"):
            _no_other(diag, lines, _head(diag))


def _no_other(diag: dict, lines: list[int], head: str) -> None:
    diag.update(
        cause="no-other",
        line=lines[0],
        lines=lines[:4],
        message=f"{head}: the load at line {lines[0]} has no other=, so its "
        "masked-off lanes are undefined (the lab fills them with NaN; a GPU leaves whatever is "
        "there) "
        "and they reach the result — give other= the value that cannot change it (0.0 for a sum, "
        "float('-inf') for a max)",
    )


def _padding_reached_plan(diagnoses: list, padding: object) -> None:
    """`_padding_reached` for a plan case (several outputs and gradients): `padding`, the runner's fact, holds
    per output with inf/NaN whether a second run with the padding of loads without other= left 0 cleared some
    of them (`cleared`), the rows still inf/NaN there (`rows_left`) and the lines of the padded loads whose
    padding reached that output (`lines`, the backward's first). Such an output's inf/NaN names the load —
    over `zero-row` too (the lab's zeroed row 0 is in every NaN row range), unless row 0 itself stayed
    inf/NaN without the padding: then eps is missing as well, and the zero row says so."""
    if not isinstance(padding, dict):
        return
    for diag in diagnoses:
        if diag.get("kind") != "nan" or diag.get("cause") not in (None, "softmax", "zero-row"):
            continue
        fact = padding.get(diag.get("output"))
        if not isinstance(fact, dict) or fact.get("cleared") is not True:
            continue
        left = fact.get("rows_left")
        if diag.get("cause") == "zero-row" and isinstance(left, list) and 0 in left:
            continue
        lines = [n for n in fact.get("lines") or [] if isinstance(n, int) and not isinstance(n, bool)]
        if not lines:
            continue
        if diag.get("cause") == "zero-row":
            diag.pop("input", None)
        output = str(diag.get("output"))
        text = str(diag.get("message", ""))
        rest = text[len(output) + 2 :] if text.startswith(f"{output}: ") else text
        _no_other(diag, lines, f"{output}: {_head({'message': rest})}")


def _other_variant(diagnoses, exercise, inputs, params, kwargs, got, expected, atol, rtol, file) -> None:
    """The output is the right answer for another value of one of the case's keywords (activation="relu"
    where "silu" is asked, or no activation at all): the kernel took another branch. Cause `other-variant`,
    facts `keyword`, `asked`, `matches` and `line` (the first `if` that compares with the matched value).
    Said only when exactly one other answer explains the output, ten times better than the asked one."""
    diag = next(
        (d for d in diagnoses if d.get("kind") == "mismatch" and d.get("cause") in (None, "all-wrong")), None
    )
    if diag is None or not got.is_floating_point() or got.shape != expected.shape:
        return
    seen: dict[str, list] = {}
    for variant in exercise.verify.variants or []:
        for key, value in variant.items():
            if not str(key).startswith(contracts.DIRECTIVE) and isinstance(value, (str, int, float, bool)):
                seen.setdefault(str(key), [])
                if value not in seen[str(key)]:
                    seen[str(key)].append(value)
    g = got.detach().double()
    e = expected.detach().double().to(got.device)
    if not bool(torch.isfinite(g).all()) or not bool(torch.isfinite(e).all()):
        return
    off = float((g - e).abs().max())
    matched: list[tuple[str, Any, float]] = []
    for key, values in seen.items():
        for value in [None, *values]:
            if kwargs.get(key) == value:
                continue
            other = {k: v for k, v in kwargs.items() if k != key}
            if value is not None:
                other[key] = value
            try:
                answer = exercise_env.reference(exercise, dict(inputs), params, other)
            except Exception:  # noqa: BLE001 - a reference that needs the keyword: not this one
                continue
            if not isinstance(answer, torch.Tensor) or answer.shape != got.shape:
                continue
            a = answer.detach().double().to(got.device)
            if torch.allclose(a, e, atol=atol, rtol=rtol):
                continue  # the keyword does not change the answer (a tile size)
            err = float((g - a).abs().max())
            if torch.allclose(g, a, atol=atol, rtol=rtol) and err <= 0.1 * off:
                matched.append((key, value, err))
    keys = {key for key, _, _ in matched}
    if len(keys) != 1:  # none, or answers of two keywords alike
        return
    key = keys.pop()
    best = min(err for _, _, err in matched)
    # the closest answers (a wide float32 tolerance also admits silu for relu); several where they are the
    # same (one positive element: no activation and relu alike)
    values = [value for _, value, err in matched if err <= 2 * best + 1e-12]
    line = next((n for n in (_branch_line(file, v) for v in values) if n), None)
    diag.update(cause="other-variant", keyword=key, asked=kwargs.get(key), matches=values, line=line)

    def shown(value) -> str:
        return f"{key}={value!r}" if value is not None else f"no {key}"

    where = f" — check the condition at line {line}" if line else " — check the condition that chooses it"
    diag["message"] = (
        f"every element is the right answer for {' or '.join(map(shown, values))}, but this case asks for "
        f"{shown(kwargs.get(key))}: the kernel took the wrong branch{where}"
    )


def _branch_line(file, value) -> int | None:
    """The line of the first `if` in the learner's file that compares with the constant `value` (`X ==
    "relu"`, `"relu" != X`)."""
    if value is None:
        return None
    tree = _learner_tree(file)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        for test in ast.walk(node.test):
            if isinstance(test, ast.Compare) and any(isinstance(op, (ast.Eq, ast.NotEq)) for op in test.ops):
                sides = [test.left, *test.comparators]
                if any(
                    isinstance(n, ast.Constant) and type(n.value) is type(value) and n.value == value
                    for n in sides
                ):
                    return node.lineno
    return None


def _negatives_zeroed(diagnoses: list, got, expected, kwargs: dict, atol: float, rtol: float, file) -> None:
    """Every wrong element is a negative value of the right answer that came out 0, and every other element
    is right: got = relu(expected), a ReLU applied where the case asks for none (`if ACTIVATION == "relu" or
    "relu6":` is always true). Cause `negatives-zeroed`, with the `if` line that applies a ReLU (`line`)."""
    diag = next(
        (d for d in diagnoses if d.get("kind") == "mismatch" and d.get("cause") in (None, "all-wrong")), None
    )
    if diag is None or not got.is_floating_point() or got.shape != expected.shape:
        return
    g, e = got.detach().double(), expected.detach().double().to(got.device)
    if not bool(torch.isfinite(g).all()) or not bool(torch.isfinite(e).all()):
        return
    wrong = (g - e).abs() > atol + rtol * e.abs()
    if not bool(wrong.any()) or not bool((e[wrong] < 0).all()) or not bool((g[wrong].abs() <= atol).all()):
        return
    # a ReLU zeroes every clearly negative value, not a few near 0 (a near miss whose wrong elements happen
    # to be small negatives rounded towards 0)
    clear = e < -4 * atol
    if not bool(clear.any()) or not bool((g[clear].abs() <= atol).all()):
        return
    line = _relu_line(file)
    asked = kwargs.get("activation")
    diag.update(cause="negatives-zeroed", count=int(wrong.sum()), activation=asked, line=line)
    diag["message"] = (
        f"{int(wrong.sum())} elements are wrong, and each is a negative value of the right answer that came "
        "out "
        "0 (every other element is right): a ReLU is applied where this case asks for "
        + (f"activation={asked!r}" if asked else "no activation")
        + (
            f" — check the condition at line {line} that chooses it"
            if line
            else " — check the condition that chooses the activation"
        )
    )


def _relu_line(file) -> int | None:
    """The line of the first `if` in the learner's file whose branch applies a ReLU (tl.maximum or relu)."""
    tree = _learner_tree(file)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        for inner in (n for stmt in node.body for n in ast.walk(stmt)):
            if isinstance(inner, ast.Call):
                func = inner.func
                name = name_of(func)
                if name in ("maximum", "relu"):
                    return node.lineno
    return None


def _benched_into_output(diagnoses: list, got, expected, benched: int) -> None:
    """A pinned autotune case ran the kernel `benched` more times while the autotuner timed its configs (as a
    GPU's autotuner does). An output that came out (benched + 1) times the reference accumulated every run:
    atomics or += into an output the autotuner never resets."""
    if not benched or not got.is_floating_point():
        return
    g, e = got.detach().double(), expected.detach().double().to(got.device)
    big = e.abs() > 1e-3 * float(e.abs().max()) if e.numel() else e.bool()
    if not bool(big.any()) or not bool(torch.isfinite(g).all()):
        return
    ratio = (g[big] / e[big]).median().item()
    if abs(ratio - (benched + 1)) > 0.02 * (benched + 1):
        return
    for diag in diagnoses:
        if diag.get("kind") == "mismatch":
            diag.update(cause="autotune-side-effect", runs=benched + 1)
            diag["message"] = (
                f"{_head(diag)}: the autotuner ran your kernel {benched} more times while it timed the "
                f"configs (as it does on a GPU), and the output came out {benched + 1}× the right one — the "
                "kernel accumulates into its output (tl.atomic_add, +=), so every timing run added again: "
                "give @triton.autotune reset_to_zero=[the output's name] (or zero it in a Config pre_hook)"
            )
            return


def _nonfinite_from_finite(diagnoses: list, got, expected, inputs: dict) -> None:
    """inf/NaN that no padding made (the interpreter's second run kept them, or no load had masked-off lanes
    without other=) at elements whose inputs are finite: the learner's arithmetic overflows there. Elementwise
    inputs (the output's shape) say their values at the first such elements."""
    for diag in diagnoses:
        if diag.get("kind") != "nan" or diag.get("cause") is not None:
            continue
        bad = (~torch.isfinite(got.detach())) & torch.isfinite(expected.detach().to(got.device))
        where = bad.reshape(-1).nonzero().reshape(-1)[:3].tolist()
        shown: dict[str, list] = {}
        for name, value in inputs.items():
            if not isinstance(value, torch.Tensor) or not value.is_floating_point():
                continue
            if not bool(torch.isfinite(value).all()):
                return  # an input holds inf/NaN itself: nothing to say about the arithmetic
            if value.shape == got.shape and where:
                flat = value.detach().reshape(-1)
                shown[name] = [float(f"{float(flat[i]):.4g}") for i in where]
        # a fact, not a cause: the cross-case patterns (a masked block, a K step) still name theirs over it
        diag.update(finite_inputs=True, elements=where, values=shown)
        said = "; ".join(
            f"{name} = {', '.join(str(v) for v in vals)}" for name, vals in list(shown.items())[:2]
        )
        diag["message"] = (
            f"{_head(diag)}: every input is finite{f' ({said} there)' if said else ''} — your arithmetic "
            "makes inf or NaN from them: an intermediate overflows (exp of a large value is inf; inf / inf "
            "and inf − inf are NaN), divides by zero, or takes the sqrt or log of a negative number. Rewrite "
            "the formula so that it stays finite for large inputs (tanh(u) = 2·sigmoid(2u) − 1; subtract a "
            "max before exp)"
        )


def _raised_by_learner(info: dict, path: str | None) -> bool:
    """A plain runtime error whose line in the learner's file is a `raise` statement: their own check."""
    import linecache

    line = info.get("line")
    if info.get("kind") != "runtime" or not path or not isinstance(line, int):
        return False
    return linecache.getline(path, line).strip().startswith("raise")


def _rejected_valid(info: dict, path: str) -> None:
    """Every verify case is valid input: a wrapper's own `raise` on one is a check that is too strict. A check
    against 'cuda' (instead of comparing the inputs' devices) is named: it refuses every interpreter case."""
    import linecache

    line = int(info["line"])
    nearby = " ".join(linecache.getline(path, n) for n in range(max(1, line - 2), line + 1))
    info["cause"] = "rejected-valid"
    info["cuda"] = "cuda" in nearby.lower()
    info["message"] = (
        f"your own check raised on a valid case ({info.get('exception') or info.get('message')}): every case "
        f"the lab runs is valid input — check the condition above line {line}"
        + (", and compare the inputs' devices with each other, not with 'cuda'" if info["cuda"] else "")
    )


def _launch_summary(launch: dict) -> dict:
    return {k: launch.get(k) for k in ("kernel", "file", "grid")}


def _launch_block(launches) -> int | None:
    for launch in launches:
        value = (launch.get("meta") or {}).get("BLOCK_SIZE")
        if isinstance(value, int):
            return value
    return None


def _refine_unwritten(diagnoses: list, launches: list, block, numel: int, provenance=None) -> None:
    """'The last programs were not launched' is only true when the grid really was too small. When it was not:
    only the last one or two elements unwritten and no element stored twice is a store mask one short
    (`tail-masked`); otherwise each program wrote only part of its block (`partial-blocks`)."""
    if not block or len(launches) != 1 or not launches[0].get("grid"):
        return
    programs = 1
    for dim in launches[0]["grid"]:
        programs *= max(int(dim), 1)
    if programs * block < numel:
        return
    seen = provenance if isinstance(provenance, dict) else {}
    overlap = _int(seen.get("stored_twice"), 1) if "stored_twice" in seen else 1
    for diag in diagnoses:
        cause = diag.get("cause")
        if diag.get("kind") != Kind.UNWRITTEN or cause not in ("grid-floor", "grid-short", "one-program"):
            continue
        ranges = diag.get("ranges") or []
        head = diag["message"].split(":", 1)[0]
        if len(ranges) == 1 and ranges[0][1] == numel - 1 and numel - ranges[0][0] <= 2 and not overlap:
            first = ranges[0][0]
            diag.update(cause="tail-masked", grid_programs=programs, block=block, first=first, start=first)
            head = (
                f"element {first} was never written"
                if first == numel - 1
                else f"elements {first}–{numel - 1} were never written"
            )
            diag["message"] = (
                f"{head}: a program covered {'it' if numel - first == 1 else 'them'} ({programs} × "
                f"BLOCK_SIZE {block} ≥ {numel}), but the store's mask switched off the last "
                f"{numel - first} — it must be True for every offset below n_elements (an off-by-one?)"
            )
        elif cause != "one-program":
            diag.update(cause="partial-blocks", grid_programs=programs, block=block)
            diag["message"] = (
                f"{head}: the grid had enough programs ({programs} × BLOCK_SIZE {block} ≥ {numel}), "
                "but each program wrote only part of its block — check the offsets: "
                "pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)"
            )


def _store_loop_line(path: str | None) -> int | None:
    """The line of the loop around the stores when every store of the learner's @triton.jit functions
    (tl.store, a descriptor's .store) sits inside a for/while loop, else None: a store that never ran then sat
    in a loop that ran no iteration, not behind a return."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    loops: list[int] = []
    found = False

    def visit(node: ast.AST, loop: int | None) -> bool:
        nonlocal found
        for child in ast.iter_child_nodes(node):
            inner = child.lineno if isinstance(child, (ast.For, ast.While)) else loop
            if (
                isinstance(child, ast.Call)
                and isinstance(child.func, ast.Attribute)
                and child.func.attr == "store"
            ):
                found = True
                if loop is None:
                    return False
                loops.append(loop)
            if not visit(child, inner):
                return False
        return True

    for fn in ast.walk(tree):
        jitted = isinstance(fn, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in fn.decorator_list)
        if jitted and not visit(fn, None):
            return None
    return loops[0] if found and loops else None


def _poison_through_cast(got, unwritten, provenance):
    """The output is a whole-tensor cast of a launch's buffer (`provenance.cast_from`: `sums.to(x.dtype)`)
    whose stored elements still held the poison (`stored_poison`): the cast turned the poison into a plain
    NaN of the output's type, which `is_poison` no longer sees. When the output's NaN elements are exactly as
    many as the buffer's stored poison, they are those elements (said as the float32 case says them)."""
    facts = provenance if isinstance(provenance, dict) else {}
    count = _int(facts.get("stored_poison"))
    if not facts.get("cast_from") or not count or unwritten is None or not got.is_floating_point():
        return unwritten
    if bool(unwritten.any()):
        return unwritten
    nan = torch.isnan(got)
    return nan if int(nan.sum()) == count else unwritten


_ALLOCATE_EMPTY = frozenset({"empty", "empty_like", "new_empty", "empty_strided"})


def _atomic_onto_empty(path: str | None, arg: str | None) -> dict | None:
    """A kernel parameter (the output's, `arg`) that a `tl.atomic_add` of the file adds onto, and the launch
    passes a tensor the wrapper made with torch.empty: {line (the atomic's), atomic (its call, short),
    buffer, alloc (the allocation call, short), alloc_line}; alloc_line/alloc/buffer only when the launch and
    the allocation are found. None when no atomic_add takes that parameter."""
    tree = contracts.file_tree(path) if path else None
    if tree is None or not arg:
        return None
    for kernel in ast.walk(tree):
        if not isinstance(kernel, ast.FunctionDef) or arg not in [a.arg for a in kernel.args.args]:
            continue
        call = next(
            (
                n
                for n in ast.walk(kernel)
                if isinstance(n, ast.Call)
                and name_of(n.func) == "atomic_add"
                and n.args
                and arg in _names_in(n.args[0])
            ),
            None,
        )
        if call is None:
            continue
        found: dict = {"line": call.lineno, "atomic": f"tl.atomic_add({ast.unparse(call.args[0])}, …)"}
        index = [a.arg for a in kernel.args.args].index(arg)
        for launch in ast.walk(tree):
            if not (isinstance(launch, ast.Call) and isinstance(launch.func, ast.Subscript)):
                continue
            if name_of(launch.func.value) != kernel.name:
                continue
            passed = next((k.value for k in launch.keywords if k.arg == arg), None)
            if passed is None and index < len(launch.args):
                passed = launch.args[index]
            if not isinstance(passed, ast.Name):
                continue
            wrapper = next(
                (
                    f
                    for f in ast.walk(tree)
                    if isinstance(f, ast.FunctionDef)
                    and f.lineno <= launch.lineno <= (f.end_lineno or f.lineno)
                    and f is not kernel
                ),
                None,
            )
            for node in ast.walk(wrapper) if wrapper is not None else ():
                if (
                    isinstance(node, ast.Assign)
                    and node.lineno < launch.lineno
                    and any(isinstance(t, ast.Name) and t.id == passed.id for t in node.targets)
                    and isinstance(node.value, ast.Call)
                    and name_of(node.value.func) in _ALLOCATE_EMPTY
                ):
                    func = ast.unparse(node.value.func)
                    found.update(buffer=passed.id, alloc=f"{func}(…)", alloc_line=node.lineno)
            if "alloc_line" in found:
                break
        return found
    return None


def _refine_stores(
    diagnoses: list,
    provenance,
    launched: bool = False,
    learner_file: str | None = None,
    persistent: bool = False,
) -> None:
    """What the interpreter saw the learner's stores do, for output that still holds the poison: stored, but
    with values computed from memory nobody wrote (a kernel that loads its own output); tl.store ran with
    every lane masked off (a mask one short at n = 1); or a learner kernel ran and never reached its tl.store
    (a return before it)."""
    facts = provenance if isinstance(provenance, dict) else {}
    stored_poison, calls, lanes = (
        _int(facts.get(k)) for k in ("stored_poison", "store_calls", "store_lanes")
    )
    for diag in diagnoses:
        if diag.get("kind") != Kind.UNWRITTEN:
            continue
        if stored_poison and stored_poison >= _int(diag.get("count")):
            loads_output = facts.get("loads_output") is True
            arg = str(facts.get("output_arg") or "")[:60] or None
            diag.update(cause="stored-poison", loads_output=loads_output, arg=arg)
            count = _int(diag.get("count"))
            one = count == 1
            atomic = None if loads_output else _atomic_onto_empty(learner_file, arg)
            if atomic is not None:  # tl.atomic_add onto a buffer torch.empty left uninitialised
                diag.update(atomic)
                made = (
                    f"{atomic['buffer']}, which {atomic['alloc']} (line {atomic['alloc_line']}) left "
                    "uninitialised"
                    if atomic.get("alloc_line")
                    else "an output that was never zeroed"
                )
                diag["message"] = (
                    f"{count} element{'' if one else 's'} of the output "
                    + ("holds a value" if one else "hold values")
                    + f" that {atomic['atomic']} (line {atomic['line']}) added onto {made} — an atomic add "
                    "accumulates onto what is already there: start the buffer from torch.zeros"
                )
                continue
            diag["message"] = (
                f"{count} element{'' if one else 's'} of the output "
                + ("holds a value" if one else "hold values")
                + " computed from memory nobody wrote, although your kernel stored "
                + ("it" if one else "them")
                + (
                    f" — it loads from the output it is writing ({arg or 'the output tensor'}): read the "
                    "inputs instead"
                    if loads_output
                    else " — check what the stored values are computed from"
                )
            )
        elif diag.get("cause") == "none-written" and launched and "store_calls" in facts and not calls:
            loop = _store_loop_line(learner_file)
            if loop is not None:
                count = _int(diag.get("count"))
                if persistent:  # the persistent tile loop: said as the larger cases say it
                    diag.update(cause="tile-loop", line=loop)
                    diag["message"] = (
                        f"{count} elements were never written: the persistent tile loop (line {loop}) ran no "
                        "iteration in this case, so it never reached a tile — with P programs, program pid "
                        "must take tiles pid, pid + P, pid + 2P, … while below num_tiles (start at "
                        "tl.program_id(0), step by P, stop at num_tiles)"
                    )
                else:
                    diag.update(cause="store-loop-empty", line=loop)
                    diag["message"] = (
                        f"{diag['message'].split(':', 1)[0]}: your kernel was launched but never ran its "
                        f"tl.store — it sits in the loop at line {loop}, which ran no iteration in this "
                        "case: check that loop's bounds (a bound one short, or a count rounded down such as "
                        "K // BLOCK_K when K < BLOCK_K: use tl.cdiv)"
                    )
                continue
            diag.update(cause="store-never-ran")
            diag["message"] = (
                f"{diag['message'].split(':', 1)[0]}: your kernel was launched but never ran its "
                "tl.store — a return (or an if) before the store skips it in this case: look for a return or "
                "branch above tl.store and let every path reach the store"
            )
        elif diag.get("cause") == "none-written" and calls and not lanes:
            diag.update(cause="masked-off", store_calls=calls)
            shifted = _arange_start(learner_file)
            if shifted is not None:
                line, start = shifted
                diag.update(cause="arange-start", line=line, start=start)
                diag["message"] = (
                    f"{diag['message'].split(':', 1)[0]}: your kernel ran tl.store, but its mask switched "
                    f"off every lane — the offsets start at {start} (line {line}: tl.arange({start}, …)), so "
                    f"lane 0 is element {start} of its block and the block's first element is never touched: "
                    "count lanes from 0, tl.arange(0, BLOCK_SIZE)"
                )
                continue
            scalar = _program_mask(learner_file)
            if scalar is not None:
                line, text = scalar
                diag.update(line=line, mask=text, per_program=True)
                diag["message"] = (
                    f"{diag['message'].split(':', 1)[0]}: your kernel ran tl.store, but its mask switched "
                    f"off every lane — the mask at line {line} ({text}) is one value for the whole program, "
                    "not one per lane, so a partial block is switched off as a whole: build it from the "
                    "offsets, "
                    "mask = offsets < n_elements"
                )
                continue
            diag["message"] = (
                f"{diag['message'].split(':', 1)[0]}: your kernel ran tl.store, but its mask switched off "
                "every lane — check the store's mask (it must be True for every offset below n_elements)"
            )


_VALUE_TESTS = (("<= 0", "le"), ("< 0", "lt"), ("> 0", "gt"), (">= 0", "ge"), ("== 0", "eq"), ("!= 0", "ne"))


def _value_masked(diagnoses: list, unwritten, inputs: dict, expected, learner_file: str | None) -> None:
    """Output left unwritten exactly where an input's (or the answer's) values pass a sign test (x <= 0,
    expected == 0): the store's mask depends on the loaded values (`mask & (x > 0)`), not a wrong offset or
    grid. Said when the file has a tl.store whose mask is computed from a tl.load (named with its line); from
    the values alone only when the unwritten elements lie in several runs of a larger output (never a whole
    output, which a wrong bound or grid explains as well)."""
    if unwritten is None:
        return
    diag = next(
        (
            d
            for d in diagnoses
            if d.get("kind") == Kind.UNWRITTEN and d.get("cause") not in ("stored-poison", "store-never-ran")
        ),
        None,
    )
    if diag is None:
        return
    flat = unwritten.reshape(-1).bool()
    n, count = flat.numel(), int(flat.sum())
    if not count:
        return
    store = _store_mask_from_load(learner_file)
    if store is None and (count == n or n < 8 or _int(diag.get("runs")) < 2):
        return
    named = [(k, v) for k, v in inputs.items() if isinstance(v, torch.Tensor) and v.numel() == n]
    if isinstance(expected, torch.Tensor) and expected.numel() == n:
        named.append(("expected", expected))
    for name, values in named:
        if values.dtype.is_complex or values.dtype == torch.bool:
            continue
        v = values.detach().reshape(-1).to(flat.device)
        for text, op in _VALUE_TESTS:
            hit = getattr(v, op)(0)
            if bool(torch.equal(hit, flat)):
                where = "the answer" if name == "expected" else name
                zero = (
                    name != "expected"
                    and isinstance(expected, torch.Tensor)
                    and expected.numel() == n
                    and bool(torch.equal(expected.detach().reshape(-1).to(flat.device).eq(0), flat))
                )
                diag.update(cause="value-masked", input=name, test=text, answer_zero=zero)
                if store is not None:
                    diag.update(line=store[0], mask=store[1], loaded=store[2])
                diag["message"] = (
                    (
                        f"the {count} elements never written are exactly those where {where} {text}"
                        if count > 1
                        else f"the element never written is where {where} {text}"
                    )
                    + (" (where the answer is 0)" if zero else "")
                    + ": the store's mask depends on the values"
                    + (
                        f" (line {store[0]}: mask={store[1]}, made from the loaded {store[2]})"
                        if store
                        else ""
                    )
                    + " — a masked-off lane keeps whatever the output held before; store every element, "
                    "computing its value (0 included) instead of masking it off"
                )
                return


def _store_mask_from_load(path: str | None) -> tuple[int, str, str] | None:
    """(line, mask text, loaded name) of the first tl.store in a @triton.jit function of the learner's file
    whose mask is computed (through the function's assignments) from a value a tl.load returned: the lanes it
    writes depend on the data."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        if not any("jit" in ast.unparse(d) for d in function.decorator_list):
            continue
        assigned: dict[str, list[ast.AST]] = {}
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assigned.setdefault(target.id, []).append(node.value)

        def loaded(expr: ast.AST, depth: int = 0, assigned: dict = assigned) -> str | None:
            for n in ast.walk(expr):
                if isinstance(n, ast.Call) and ast.unparse(n.func) in ("tl.load", "triton.language.load"):
                    return ast.unparse(n)[:60]
                if isinstance(n, ast.Name) and n.id in assigned and depth < 6:
                    for value in assigned[n.id]:
                        if isinstance(value, ast.Call) and ast.unparse(value.func) in (
                            "tl.load",
                            "triton.language.load",
                        ):
                            return n.id
                        inner = loaded(value, depth + 1)
                        if inner is not None:
                            return inner
            return None

        for node in ast.walk(function):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in ("tl.store", "triton.language.store"):
                mask = next((k.value for k in node.keywords if k.arg == "mask"), None)
                if mask is None and len(node.args) >= 3:
                    mask = node.args[2]
                if mask is None:
                    continue
                source = loaded(mask)
                if source is not None:
                    return node.lineno, ast.unparse(mask)[:60], source
    return None


def _arange_start(path: str | None) -> tuple[int, int] | None:
    """(line, start) of the first `tl.arange(start, ...)` in the learner's file whose start is a nonzero
    integer literal: lanes counted from 1 skip each block's first element."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and ast.unparse(node.func) in ("tl.arange", "triton.language.arange"):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and isinstance(first.value, int) and first.value != 0:
                return node.lineno, int(first.value)
    return None


def _store_mask_named(diagnoses: list, launches: list, learner_file: str | None) -> None:
    """An output left unwritten by the store's own mask (`masked-off`: every lane off; `tail-masked`: the last
    one or two): the line that builds that mask (`_store_mask_line`), as `line` and `mask`, where one line
    does. The per-program mask (masked-off with `per_program`) already names its line."""
    kernels = {str(launch.get("kernel")) for launch in launches if launch.get("kernel")}
    found: tuple[int, str] | None = None
    for diag in diagnoses:
        if diag.get("kind") != Kind.UNWRITTEN or diag.get("cause") not in ("masked-off", "tail-masked"):
            continue
        if diag.get("line"):
            continue
        found = found or _store_mask_line(learner_file, kernels)
        if found is None:
            return
        line, text = found
        diag.update(line=line, mask=text)
        head, _, rest = str(diag.get("message") or "").partition(" — ")
        if diag["cause"] == "tail-masked":
            diag["message"] = head.replace(
                "the store's mask switched", f"the store's mask (line {line}: {text}) switched", 1
            ) + (f" — {rest}" if rest else "")
        else:
            diag["message"] = (
                f"{head} — check the store's mask at line {line} ({text}): it must be True for every offset "
                "below n_elements"
            )


def _store_mask_line(path: str | None, kernels: set | None = None) -> tuple[int, str] | None:
    """(line, text) of the mask the learner's tl.store uses: its `mask=` (or third argument) followed to the
    one assignment of that name in the store's @triton.jit function (`mask = offsets < n_elements - 1`), or
    the store's own line for a mask written inline. Only the functions named in `kernels` when given. None
    when that is not one line: no masked store, an unmasked store beside it, stores with masks made on
    different lines, a name assigned more than once (or not at all: a parameter)."""
    tree = _learner_tree(path)
    if tree is None:
        return None
    found: set[tuple[int, str]] = set()
    for function in _jit_functions(tree):
        if kernels and function.name not in kernels:
            continue
        for node in ast.walk(function):
            if not (
                isinstance(node, ast.Call) and ast.unparse(node.func) in ("tl.store", "triton.language.store")
            ):
                continue
            mask = next((k.value for k in node.keywords if k.arg == "mask"), None)
            if mask is None and len(node.args) >= 3:
                mask = node.args[2]
            if mask is None:
                return None
            if not isinstance(mask, ast.Name):
                found.add((node.lineno, ast.unparse(mask)[:120]))
                continue
            made = [
                n
                for n in ast.walk(function)
                if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign))
                and any(
                    isinstance(t, ast.Name) and t.id == mask.id
                    for t in (n.targets if isinstance(n, ast.Assign) else [n.target])
                )
            ]
            value = made[0].value if len(made) == 1 else None
            if value is None or isinstance(made[0], ast.AugAssign):
                return None
            found.add((made[0].lineno, f"{mask.id} = {ast.unparse(value)}"[:120]))
    return found.pop() if len(found) == 1 else None


def _program_mask(path: str | None) -> tuple[int, str] | None:
    """(line, text) of the assignment of a tl.store's mask= name when nothing it is computed from (through the
    assignments of the store's own function) holds a tl.arange: one value per program ((pid + 1) * BLOCK <=
    n), not one per lane."""
    import ast

    tree = _learner_tree(path)
    if tree is None:
        return None
    for function in (n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)):
        assigned: dict[str, ast.Assign] = {}
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
            ):
                assigned.setdefault(node.targets[0].id, node)

        def lanes(expr: ast.AST, depth: int = 0, assigned: dict = assigned) -> bool:
            for n in ast.walk(expr):
                if isinstance(n, ast.Call) and ast.unparse(n.func).endswith("arange"):
                    return True
                if (
                    isinstance(n, ast.Name)
                    and n.id in assigned
                    and depth < 6
                    and lanes(assigned[n.id].value, depth + 1)
                ):
                    return True
            return False

        for node in ast.walk(function):
            if isinstance(node, ast.Call) and ast.unparse(node.func) in ("tl.store", "triton.language.store"):
                mask = next((k.value for k in node.keywords if k.arg == "mask"), None)
                if isinstance(mask, ast.Name) and mask.id in assigned and not lanes(mask):
                    made = assigned[mask.id]
                    return made.lineno, ast.unparse(made.value)[:80]
    return None


def summarize(result: dict) -> str:
    cases = result["cases"]
    passed = sum(c["passed"] for c in cases)
    if result.get("error"):
        err = result["error"]
        where = f" (line {err['line']})" if err.get("line") else ""
        return f"{err['kind']} error{where}: {err['message']}"
    if result["passed"]:
        fixed = sorted(
            {
                name
                for c in cases
                for n in c.get("notes") or []
                if n.get("kind") == "tiles-not-varied"
                for name in n.get("names", [])
            }
        )
        note = (
            f" ({', '.join(fixed)} not varied: {result.get('entry')}() picks its own tiles)" if fixed else ""
        )
        return f"all {len(cases)} cases pass on the {result['backend']}{note}"
    first = next(c for c in cases if not c["passed"])
    reason = first["diagnoses"][0]["message"] if first["diagnoses"] else "values differ"
    return f"{passed}/{len(cases)} cases pass — first failure, {first['name']}: {reason}"
