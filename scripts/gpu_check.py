#!/usr/bin/env python3
"""One GPU pass over `bench` and `ir`, for a machine with an NVIDIA GPU (no Textual needed).

    OUT=/tmp/gpu-out python scripts/gpu_check.py

Runs bench in-process on the vector-add solution and on every matmul / softmax / transpose solution present,
the honesty check (bench's median against triton.testing.do_bench's for the same callable, same process, ±5%),
the sweeps, the naive timing, the autotune explorer, ir on this GPU and for another target, and one bench and
one ir through the real worker process. Full JSON (gpu_check.json, bench-*.json) and each bench's text table
(bench-*.txt) go under $OUT; stdout ends with a short table. Steps run most important first and are skipped
when the time budget (GPU_CHECK_BUDGET_S, default 170 s) would run out. Exit status 0 when every step that ran
passed and every honesty check held.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.chdir(ROOT)  # the worker process is started as `python -m tritonlab.engine.worker`
os.environ["PYTHONPATH"] = str(ROOT) + (
    os.pathsep + os.environ["PYTHONPATH"] if os.environ.get("PYTHONPATH") else ""
)
OUT = Path(os.environ.get("OUT") or "/tmp/gpu-out")
OUT.mkdir(parents=True, exist_ok=True)
os.environ["TRITONLAB_HOME"] = os.environ.get("TRITONLAB_HOME") or str(OUT / "home")
os.environ.pop("TRITON_INTERPRET", None)
BUDGET_S = float(os.environ.get("GPU_CHECK_BUDGET_S", "170"))
STARTED = time.monotonic()
TOLERANCE = 0.05
QUANTILES = [0.5, 0.2, 0.8]

report: dict = {"env": {}, "steps": [], "honesty": [], "failures": [], "benches": {}, "notes": []}
summary_rows: list[list[str]] = []
extra_lines: list[str] = []


def elapsed() -> float:
    return time.monotonic() - STARTED


def save() -> None:
    from tritonlab.engine.protocol import _clean

    (OUT / "gpu_check.json").write_text(json.dumps(_clean(report), indent=1, default=str), encoding="utf-8")


class Ctx:
    backend = "gpu"

    def __init__(self, info: dict):
        self.info = info
        self._log = open(OUT / "progress.log", "a", encoding="utf-8")  # noqa: SIM115 - lives as long as the run

    def progress(self, message, **extra):
        self._log.write(f"{elapsed():7.1f}s {message}\n")
        self._log.flush()


CTX: Ctx | None = None


def step(name: str, estimate_s: float, fn) -> None:
    left = BUDGET_S - elapsed()
    if left < estimate_s:
        report["steps"].append(
            {"name": name, "status": "skipped", "why": f"{left:.0f} s left, needs ~{estimate_s:.0f}"}
        )
        print(f"[{elapsed():6.1f}s] skip {name} (budget)", flush=True)
        save()
        return
    print(f"[{elapsed():6.1f}s] {name} …", flush=True)
    began = time.monotonic()
    entry = {"name": name, "status": "ok"}
    try:
        fn()
    except Exception as exc:  # noqa: BLE001 - one failing step must not hide the others
        entry.update(status="error", error=f"{type(exc).__name__}: {exc}", traceback=traceback.format_exc())
        report["failures"].append(f"{name}: {type(exc).__name__}: {exc}")
        print(traceback.format_exc(), flush=True)
    entry["seconds"] = round(time.monotonic() - began, 1)
    report["steps"].append(entry)
    save()


def slug(ref: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", ref.lower()).strip("-")


def fmt(value, digits=4) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:,.0f}" if value >= 1000 else f"{value:.{digits}g}"
    return str(value)


def pct(value) -> str:
    return "—" if value is None else f"{value:.0f}%"


# ---- steps -------------------------------------------------------------------------------------------------


def env_step() -> None:
    global CTX
    import numpy
    import torch
    import triton

    props = torch.cuda.get_device_properties(0)
    report["env"] = {
        "gpu": props.name,
        "capability": f"{props.major}.{props.minor}",
        "torch": torch.__version__,
        "triton": triton.__version__,
        "numpy": numpy.__version__,
        "python": sys.version.split()[0],
        "cuda": torch.version.cuda,
        "sm_count": props.multi_processor_count,
    }
    CTX = Ctx({"device": props.name})


def ceilings_step() -> None:
    from tritonlab.engine import ceilings

    report["ceilings"] = ceilings.get(CTX.progress, refresh=True)


def run_bench(ref: str, solution: bool = True, **extra) -> dict:
    from tritonlab.engine.tasks import bench

    args = {"exercise": ref, "solution": solution, **extra}
    began = time.monotonic()
    result = bench.handle(args, CTX)
    result["seconds"] = round(time.monotonic() - began, 1)
    name = slug(ref) + ("" if solution else "-starter")
    report["benches"][name] = {k: v for k, v in result.items() if k != "lines"}
    from tritonlab.engine.protocol import _clean

    (OUT / f"bench-{name}.json").write_text(
        json.dumps(_clean(result), indent=1, default=str), encoding="utf-8"
    )
    (OUT / f"bench-{name}.txt").write_text("\n".join(result.get("lines") or []) + "\n", encoding="utf-8")
    if solution and result.get("error"):
        raise RuntimeError(f"bench {ref}: {result['error'].get('kind')}: {result['error'].get('message')}")
    for row in result.get("rows") or []:
        if row.get("error"):
            report["failures"].append(f"bench {ref} {row['label']}: {row['error'].get('message')}")
    return result


def table_row(ref: str, row: dict) -> None:
    summary_rows.append(
        [
            ref,
            row["label"].replace(" ", ""),
            fmt(row.get("ms")),
            fmt(row.get("gbps")),
            fmt(row.get("tflops"), 3),
            pct(row.get("pct_of_peak")),
            fmt(row.get("torch_ms")),
            "—" if row.get("speedup") is None else f"{row['speedup']:.2f}x",
            str(row.get("bound") or "—"),
        ]
    )


def honesty(ref: str, result: dict, row: dict) -> None:
    """bench's median vs do_bench's median on the same wrapper and inputs, timed now in this process."""
    from triton.testing import do_bench

    from tritonlab.engine import exercise_env, timing
    from tritonlab.engine.inputs import make_inputs
    from tritonlab.engine.tasks.bench import _baseline

    loaded = exercise_env.load({"exercise": ref, "solution": True}, "gpu")
    spec = loaded.exercise.bench
    inputs = make_inputs(loaded.exercise, row["params"], spec.dtype, 0, loaded.device)
    values = list(inputs.values())

    def call():
        return loaded.wrapper(*values)

    baseline = _baseline(loaded.exercise, spec, inputs, row["params"])
    entry = {"exercise": ref, "size": row["label"], "bench_ms": row["ms"]}
    entry["do_bench_ms"] = do_bench(call, quantiles=QUANTILES)[0]
    entry["timing_measure_ms"] = timing.measure(call)["ms"]
    entry["delta"] = (row["ms"] - entry["do_bench_ms"]) / entry["do_bench_ms"]
    entry["ok"] = abs(entry["delta"]) <= TOLERANCE
    if row.get("torch_ms"):
        entry["torch_bench_ms"] = row["torch_ms"]
        entry["torch_do_bench_ms"] = do_bench(baseline, quantiles=QUANTILES)[0]
        entry["torch_delta"] = (row["torch_ms"] - entry["torch_do_bench_ms"]) / entry["torch_do_bench_ms"]
        entry["torch_ok"] = abs(entry["torch_delta"]) <= TOLERANCE
    report["honesty"].append(entry)
    if not entry["ok"] or entry.get("torch_ok") is False:
        report["failures"].append(
            f"honesty {ref} {row['label']}: bench {row['ms']:.4g} ms vs do_bench "
            f"{entry['do_bench_ms']:.4g} ms ({entry['delta']:+.1%})"
        )


def add_step() -> None:
    result = run_bench("5")
    for row in result["rows"]:
        table_row("5/add", row)
    if result["roofline"]["bound"] != "memory":
        report["failures"].append(
            f"roofline: vector add is {result['roofline']['bound']}-bound, expected memory"
        )
    honesty("5", result, result["rows"][-1])


def sweep_line(ref: str, sweep: dict | None) -> None:
    if not sweep:
        return
    rows = sweep["rows"]
    wrong = sum(r["status"] == "wrong" for r in rows)
    errors = sum(r["status"] == "error" for r in rows)
    best = next((r for r in rows if r.get("best")), None)
    if best is None:
        report["failures"].append(f"sweep {ref}: no best config")
        extra_lines.append(
            f"sweep {ref} @{sweep['label']}: NO BEST ({len(rows)} configs, {wrong} wrong, {errors} err)"
        )
        return
    rate = f"{fmt(best.get('tflops'), 3)} TFLOP/s" if best.get("tflops") else f"{fmt(best.get('gbps'))} GB/s"
    worst = max((r for r in rows if r.get("ms")), key=lambda r: r["ms"])
    extra_lines.append(
        f"sweep {ref} @{sweep['label']}: best {best['label']} {fmt(best['ms'])} ms {rate} "
        f"({pct(best.get('pct_of_peak'))}); worst {worst['label']} {fmt(worst['ms'])} ms; "
        f"{len(rows)} configs, {wrong} wrong, {errors} errors"
    )


def matmul_step() -> None:
    result = run_bench("9/matmul")
    for row in result["rows"][-2:]:
        table_row("9/matmul", row)
    if result["rows"][-1].get("bound") != "compute":
        report["notes"].append(f"9/matmul largest size is {result['rows'][-1].get('bound')}-bound")
    sweep_line("9/matmul", result.get("sweep"))
    row = next(
        (r for r in result["rows"] if r["params"].get("M") == 4096 and r.get("ms")), result["rows"][-1]
    )
    honesty("9/matmul", result, row)


def ir_step() -> None:
    from tritonlab.engine import kernel_ir

    local = kernel_ir.compile_exercise({"exercise": "5", "solution": True, "stage": "sass"}, "cuda")
    other = kernel_ir.compile_exercise(
        {"exercise": "9/matmul", "solution": True, "stage": "ptx", "arch": "sm_80"}, "cuda"
    )
    report["ir"] = {
        "local": {k: v for k, v in local.items() if k != "text"},
        "sm_80": {k: v for k, v in other.items() if k != "text"},
        "local_text_head": (local.get("text") or "")[:3000],
    }
    for name, res in (("local sass", local), ("sm_80 ptx", other)):
        if res.get("error"):
            report["failures"].append(f"ir {name}: {res['error']}")
    ok80 = ".target sm_80" in (other.get("text") or "")
    extra_lines.append(
        f"ir: {local.get('kernel')} sass {local.get('arch')}: {local.get('registers')} regs, "
        f"{local.get('spills')} spills, {local.get('shared')} B shared; "
        f"{other.get('kernel')} ptx sm_80 {'ok' if ok80 else 'MISSING .target sm_80'} "
        f"({other.get('registers')} regs, {other.get('shared')} B shared)"
    )
    if not ok80:
        report["failures"].append("ir: sm_80 ptx has no .target sm_80")


def copy_step() -> None:
    result = run_bench("6/copy")
    table_row("6/copy", result["rows"][-1])
    sweep_line("6/copy", result.get("sweep"))
    naive = result.get("naive") or {}
    if naive.get("rows"):
        parts = [
            f"{r['label']}: {fmt(r['naive_ms'])} vs {fmt(r['ms'])} ms ({r['ratio']:.2g}x)"
            for r in naive["rows"]
        ]
        extra_lines.append("naive 6/copy (host timer, 1 call, no sync vs do_bench): " + "; ".join(parts))
    else:
        report["failures"].append("6/copy: no naive rows")


def autotune_step() -> None:
    result = run_bench("10/autotune-matmul")
    for row in result["rows"]:
        table_row("10/autotune", row)
    at = result.get("autotune") or {}
    second = at.get("second") or {}
    shapes = at.get("shapes") or []
    picks = ", ".join(f"{s['label']}: {s.get('autotuner_pick')}" for s in shapes if isinstance(s, dict))
    extra_lines.append(
        f"autotune: {len(at.get('configs') or [])} configs; winner on shape 1 {at.get('winner')} "
        f"{fmt(at.get('winner_ms'))} ms; on {second.get('label')}: {fmt(second.get('winner_ms'))} ms "
        f"vs own best {second.get('own_best')} {fmt(second.get('own_best_ms'))} ms "
        f"(gap {fmt(second.get('gap'), 3)}x); autotuner picks: {picks}"
    )
    if not at.get("winner") or second.get("gap") is None:
        report["failures"].append("autotune explorer: no winner or no gap")


def other_solutions_step() -> None:
    from tritonlab.engine import exercise_env

    done = {"05-vector-add/add", "09-matmul/matmul", "10-production/autotune-matmul"}
    for lesson in exercise_env.catalog().lessons:
        for exercise in lesson.exercises:
            if exercise.key in done or exercise.bench is None:
                continue
            if not re.search(r"matmul|softmax|transpose", exercise.solution.stem):
                continue
            if BUDGET_S - elapsed() < 25:
                report["steps"].append(
                    {"name": f"bench {exercise.key}", "status": "skipped", "why": "budget"}
                )
                continue
            result = run_bench(exercise.key)
            table_row(f"{lesson.number}/{exercise.id}", result["rows"][-1])


def worker_step() -> None:
    """The real path: a worker process, the JSON protocol, the GPU backend."""
    from tritonlab.engine.client import WorkerClient

    client = WorkerClient(backend="gpu")
    try:
        bench = client.request("bench", {"exercise": "5", "solution": True, "skip": ["sweep"]}, timeout=180)
        ir = client.request("ir", {"exercise": "5", "solution": True, "stage": "ptx"}, timeout=120)
    finally:
        client.close()
    report["worker"] = {
        "bench": {k: v for k, v in bench.items() if k != "lines"},
        "ir": {k: v for k, v in ir.items() if k != "text"},
    }
    ok = bench.get("backend") == "gpu" and not bench.get("error") and all(r.get("ms") for r in bench["rows"])
    ok_ir = not ir.get("error") and ".entry add_kernel" in (ir.get("text") or "")
    extra_lines.append(
        f"worker: bench {'ok' if ok else 'FAILED'} ({bench.get('backend')}, "
        f"{len(bench.get('rows') or [])} rows, {bench.get('elapsed_s')} s); "
        f"ir ptx {'ok' if ok_ir else 'FAILED'}"
    )
    if not ok:
        report["failures"].append(f"worker bench: {bench.get('error')}")
    if not ok_ir:
        report["failures"].append(f"worker ir: {ir.get('error')}")


def starter_step() -> None:
    result = run_bench("5", solution=False)
    if result.get("verified") or result.get("rows"):
        report["failures"].append("the vector-add starter was timed")
    extra_lines.append(f"starter 5/add not timed: {not result.get('verified') and not result.get('rows')}")


# ---- the table ---------------------------------------------------------------------------------------------


def print_table() -> None:
    env = report.get("env") or {}
    print()
    print(
        f"== gpu_check: {env.get('gpu')} · torch {env.get('torch')} · triton {env.get('triton')} · "
        f"{elapsed():.0f} s =="
    )
    ceil = report.get("ceilings") or {}
    measured, sheet = ceil.get("measured") or {}, ceil.get("datasheet") or {}
    print(
        f"ceilings: copy {fmt(measured.get('copy_gbps'))} GB/s (sheet {sheet.get('copy_gbps')}) · fp16 mm "
        f"{fmt(measured.get('matmul_fp16_tflops'))} TFLOP/s (sheet {sheet.get('fp16_tflops')}) · fp32 mm "
        f"{fmt(measured.get('matmul_fp32_tflops'))} (sheet {sheet.get('fp32_tflops')})"
    )
    headers = ["exercise", "size", "ms", "GB/s", "TFLOP/s", "%peak", "torch ms", "speedup", "bound"]
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *summary_rows)] if summary_rows else []
    for cells in [headers] + summary_rows:
        print(
            "  ".join(
                str(c).ljust(w) if i < 2 else str(c).rjust(w) for i, (c, w) in enumerate(zip(cells, widths))
            )
        )
    for h in report["honesty"]:
        torch_part = ""
        if "torch_do_bench_ms" in h:
            torch_part = (
                f"; torch {fmt(h['torch_bench_ms'])} vs {fmt(h['torch_do_bench_ms'])} "
                f"({h['torch_delta']:+.1%}) {'ok' if h['torch_ok'] else 'FAIL'}"
            )
        print(
            f"honesty {h['exercise']} {h['size']}: bench {fmt(h['bench_ms'])} ms vs do_bench "
            f"{fmt(h['do_bench_ms'])} ms ({h['delta']:+.1%}) {'ok' if h['ok'] else 'FAIL'}{torch_part}"
        )
    for line in extra_lines:
        print(line)
    skipped = [s["name"] for s in report["steps"] if s["status"] == "skipped"]
    if skipped:
        print("skipped (budget): " + ", ".join(skipped))
    print(
        "steps: "
        + ", ".join(
            f"{s['name']} {s.get('seconds', '-')}s" for s in report["steps"] if s["status"] != "skipped"
        )
    )
    print("FAILURES: " + ("none" if not report["failures"] else ""))
    for failure in report["failures"][:8]:
        print("  " + failure[:300])
    print(f"full JSON: {OUT / 'gpu_check.json'}")


class Stopped(BaseException):
    """SIGTERM (e.g. from `timeout`): stop the step in progress, still print the table."""


def _stop(signum, frame):
    raise Stopped()


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    try:
        return _run()
    except Stopped:
        running = len(report["steps"])
        report["failures"].append(f"stopped by SIGTERM at {elapsed():.0f} s, after {running} steps")
        save()
        print_table()
        return 1


def _run() -> int:
    step("environment", 0, env_step)
    if CTX is None:
        print_table()
        return 1
    step("ceilings", 5, ceilings_step)
    step("bench 5/add + honesty", 15, add_step)
    step("bench 9/matmul + sweep + honesty", 25, matmul_step)
    step("ir", 5, ir_step)
    step("worker process: bench + ir", 25, worker_step)
    step("bench 6/copy: sweep + naive", 35, copy_step)
    step("bench 10/autotune-matmul: explorer", 40, autotune_step)
    step("bench softmax/transpose/matmul solutions", 20, other_solutions_step)
    step("starter not timed", 5, starter_step)
    save()
    print_table()
    return 1 if report["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
