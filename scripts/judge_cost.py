"""What the trusted judge / untrusted runner split costs per verify, on this machine's backend.

    python scripts/judge_cost.py [--backend auto|gpu|interpreter] [--exercise 5] [--repeat 5]

A report, not a test. For each verify of the exercise's reference solution (the warm spare runner is given
time to be ready, as between a learner's edits) it prints the wall time seen by the client and the judge's
breakdown: waiting for a runner, making and saving the inputs, the runner's part (load, run every case, save
outputs) and the verdict (load outputs, reference, compare). Then the transfer alone: torch.save + torch.load
(weights_only) of the exercise's largest inputs on the backend's device, the part CUDA IPC would replace.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--backend", default="auto", choices=["auto", "gpu", "interpreter"])
    parser.add_argument("--exercise", default="5")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--pause", type=float, default=2.0, help="seconds between verifies (learner think time)")
    opts = parser.parse_args()

    from tritonlab.engine.client import WorkerClient

    client = WorkerClient(backend=opts.backend)
    started = time.perf_counter()
    info = client.start()
    print(f"judge + zygote start: {time.perf_counter() - started:.2f} s on {info.get('device')}")
    rows = []
    try:
        for index in range(opts.repeat):
            time.sleep(opts.pause)
            began = time.perf_counter()
            result = client.request("verify", {"exercise": opts.exercise, "solution": True}, timeout=600)
            wall = time.perf_counter() - began
            parts = result.get("judge") or {}
            rows.append((wall, parts))
            print(f"verify {index + 1}: {wall:.3f} s wall, passed={result.get('passed')}, "
                  + ", ".join(f"{k}={v}" for k, v in parts.items()))
    finally:
        client.close()
    walls = [w for w, _ in rows]
    if walls:
        print(f"median wall {statistics.median(walls):.3f} s over {len(walls)} verifies")
        for key in (
            "runner_wait_s", "inputs_s", "runner_s", "verdict_s",
            "runner_inputs_s", "runner_calls_s", "runner_save_s", "outputs_load_s",
        ):
            values = [p.get(key) for _, p in rows if isinstance(p.get(key), (int, float))]
            if values:
                print(f"  median {key}: {statistics.median(values):.4f}")
    transfer(opts)
    return 0


def transfer(opts) -> None:
    import torch

    from tritonlab.engine.exercise_env import catalog
    from tritonlab.engine.inputs import make_inputs

    cuda = torch.cuda.is_available() and opts.backend != "interpreter"
    device = torch.device("cuda" if cuda else "cpu")
    exercise = catalog().exercise(opts.exercise)
    cases = exercise.verify.gpu if cuda else exercise.verify.interpreter
    params = max(cases, key=lambda p: sum(v for v in p.values() if isinstance(v, int)))
    inputs = make_inputs(exercise, params, exercise.verify.dtypes[0], 0, device)
    inputs = {k: (v.clone() if isinstance(v, torch.Tensor) else v) for k, v in inputs.items()}
    size = sum(v.numel() * v.element_size() for v in inputs.values() if isinstance(v, torch.Tensor))
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "in.pt"
        times = []
        for _ in range(5):
            began = time.perf_counter()
            torch.save(inputs, path)
            torch.load(path, weights_only=True, map_location=device)
            if cuda:
                torch.cuda.synchronize()
            times.append(time.perf_counter() - began)
    print(f"transfer of {params} ({size / 2**20:.1f} MiB) by file, save + load: "
          f"median {statistics.median(times) * 1e3:.2f} ms on {device}")


if __name__ == "__main__":
    sys.exit(main())
