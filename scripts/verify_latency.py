"""Warm verify latency per exercise, through the path `tritonlab verify` and the app take.

One worker (WorkerClient, as the CLI and the app use) stays up; each exercise's solution is verified once to warm
it (import, JIT compile, caches), then `--repeat` more times, and the median wall time of those is reported as
seen by the caller (request → JSON answer), beside the worker's own seconds. With `--audit`, the interpreter
audit of a passing GPU verify (engine.replay.with_replay on a second, warm interpreter worker) is timed too: it
runs after the GPU verdict and is reported separately, because the verdict does not wait for it.

    python scripts/verify_latency.py                      # every exercise, the backend this machine has
    python scripts/verify_latency.py --backend interpreter --json latency.json
    python scripts/verify_latency.py 5/add 8/softmax 9/matmul --audit

Budgets (issue 15): GPU — vector add < 0.3 s, softmax < 0.5 s, matmul < 1.0 s; interpreter — every exercise < 1.5 s.
A measurement, not a test: it prints and records, it asserts nothing (exit status 1 only when a verify fails).
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tritonlab.content.loader import load_catalog  # noqa: E402
from tritonlab.engine.client import WorkerClient  # noqa: E402

BUDGETS = {"gpu": {"05-vector-add/add": 0.3, "08-softmax/softmax": 0.5, "09-matmul/matmul": 1.0}, "interpreter": {}}


def budget_for(backend: str, key: str) -> float | None:
    return BUDGETS.get(backend, {}).get(key, 1.5 if backend == "interpreter" else None)


def timed_request(client, args: dict, timeout: float) -> tuple[float, dict]:
    start = time.perf_counter()
    result = client.request("verify", args, timeout=timeout)
    return time.perf_counter() - start, result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("exercises", nargs="*", help="LESSON/EXERCISE keys (default: all)")
    parser.add_argument("--backend", default="auto", choices=["auto", "gpu", "interpreter"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pause", type=float, default=0.0,
                        help="seconds between verifies (a learner reads the result before the next one; the judge's "
                             "spare runner warms up meanwhile)")
    parser.add_argument("--audit", action="store_true", help="also time the interpreter audit of a GPU pass")
    parser.add_argument("--budget", type=float, default=1e9, help="stop after this many seconds")
    parser.add_argument("--json", help="write the table here")
    opts = parser.parse_args()
    catalog = load_catalog()
    exercises = [catalog.exercise(k) for k in opts.exercises] if opts.exercises else catalog.all_exercises()
    client = WorkerClient(backend=opts.backend)
    audit_client = WorkerClient(backend="interpreter") if opts.audit else None
    rows, failed, start = [], False, time.monotonic()
    try:
        for exercise in exercises:
            if time.monotonic() - start > opts.budget:
                print(f"budget of {opts.budget:.0f} s reached: stopped before {exercise.key}")
                break
            args = {"exercise": exercise.key, "solution": True}
            cold, result = timed_request(client, args, 600)
            backend = result.get("backend") or (client.info or {}).get("backend") or opts.backend
            walls, worker = [], []
            for _ in range(opts.repeat):
                time.sleep(opts.pause)
                wall, result = timed_request(client, args, 600)
                walls.append(wall)
                worker.append(result.get("seconds") or 0.0)
            row = {
                "exercise": exercise.key,
                "backend": backend,
                "cases": len(result.get("cases") or []),
                "passed": bool(result.get("passed")),
                "cold_s": round(cold, 3),
                "warm_s": round(statistics.median(walls), 3),
                "pause_s": opts.pause,
                "worker_s": round(statistics.median(worker), 3),
                "budget_s": budget_for(backend, exercise.key),
                "judge": result.get("judge"),  # where the time went (the last warm verify): see verify.py
            }
            if audit_client is not None and backend == "gpu" and result.get("passed"):
                from tritonlab.engine.replay import with_replay

                with_replay(dict(result), args, timeout=300, client=audit_client)  # warm the audit worker
                t0 = time.perf_counter()
                with_replay(dict(result), args, timeout=300, client=audit_client)
                row["audit_s"] = round(time.perf_counter() - t0, 3)
            failed |= not row["passed"]
            rows.append(row)
            over = row["budget_s"] is not None and row["warm_s"] > row["budget_s"]
            print(f"{row['exercise']:<36} {row['backend']:<11} {row['cases']:>3} cases  cold {row['cold_s']:6.2f} s  "
                  f"warm {row['warm_s']:6.3f} s (worker {row['worker_s']:.3f})"
                  + (f"  audit {row['audit_s']:.2f} s" if "audit_s" in row else "")
                  + ("  OVER BUDGET" if over else "") + ("" if row["passed"] else "  FAIL"), flush=True)
            parts = row["judge"] or {}
            if parts:
                print("    " + ", ".join(f"{k} {v}" for k, v in parts.items() if k != "cases"), flush=True)
    finally:
        client.close()
        if audit_client is not None:
            audit_client.close()
    if opts.json:
        meta = {"python": platform.python_version(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
        Path(opts.json).write_text(json.dumps({"meta": meta, "rows": rows}, indent=1))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
