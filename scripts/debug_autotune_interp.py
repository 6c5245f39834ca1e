"""Which case of 10/autotune-matmul kills the interpreter runner on a GPU box (SIGINT, eighth session)?
Replays single cases through the worker and prints each verdict's error in full. Not a test."""

import json
import time

from tritonlab.engine.client import WorkerClient

CASES = [
    {},
    {"@autotune": "smallest"},
    {"@autotune": "largest"},
]
client = WorkerClient(backend="interpreter")
for kwargs in CASES:
    for params in ({"M": 1, "N": 1, "K": 1}, {"M": 63, "N": 129, "K": 31}):
        began = time.monotonic()
        try:
            result = client.request(
                "verify",
                {
                    "exercise": "10/autotune-matmul",
                    "solution": True,
                    "cases": [{"params": params, "dtype": "float16", "seed": 0, "kwargs": kwargs}],
                },
                timeout=120,
            )
        except Exception as exc:  # noqa: BLE001
            print(kwargs, params, "REQUEST FAILED", type(exc).__name__, exc, flush=True)
            client.close()
            client = WorkerClient(backend="interpreter")
            continue
        error = result.get("error") or {}
        print(kwargs, params, "passed", result.get("passed"), f"{time.monotonic() - began:.1f}s", flush=True)
        if error:
            print(json.dumps(error, indent=1, default=str)[:6000], flush=True)
client.close()

# the judge's and zygote's logs (what a runner printed before it died)
import glob  # noqa: E402

logs = sorted(glob.glob("/tmp/tritonlab-judge-*/zygote.log")) + sorted(
    glob.glob("/tmp/tritonlab-worker-*/worker.log")
)
for path in logs:
    print("==", path)
    with open(path, errors="replace") as handle:
        print(handle.read()[-3000:])
