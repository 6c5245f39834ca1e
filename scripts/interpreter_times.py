"""Warm interpreter verify time per exercise (the learning budget is 3 s on a 2-core machine).

Run: python scripts/interpreter_times.py   — prints a table: the worker-side seconds of a second, warm run.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tritonlab.content.loader import load_catalog  # noqa: E402
from tritonlab.engine.client import WorkerClient  # noqa: E402


def main() -> int:
    client = WorkerClient(backend="interpreter")
    worst = 0.0
    try:
        for exercise in load_catalog().all_exercises():
            args = {"exercise": exercise.key, "solution": True}
            client.request("verify", args, timeout=300)
            warm = client.request("verify", args, timeout=300)
            seconds = warm.get("seconds") or 0.0
            worst = max(worst, seconds)
            cases = len(warm.get("cases", []))
            print(f"{exercise.key:<36} {cases:>3} cases  {seconds:6.2f} s  {'ok' if warm.get('passed') else 'FAIL'}")
    finally:
        client.close()
    print(f"slowest: {worst:.2f} s")
    return 0 if worst <= 3.0 else 1


if __name__ == "__main__":
    sys.exit(main())
