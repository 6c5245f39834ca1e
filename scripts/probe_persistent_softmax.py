"""Why the official tutorial's persistent softmax fails its lab test on a GPU: print the verify's error and cases.

    python scripts/probe_persistent_softmax.py      (a CUDA GPU; ~30 s)
"""

import json
from pathlib import Path

from tritonlab.engine.client import WorkerClient

ROOT = Path(__file__).resolve().parents[1]
client = WorkerClient(backend="gpu")
try:
    args = {"exercise": "8/softmax", "file": str(ROOT / "tests/integration/tutorials/fused_softmax_persistent.py")}
    result = client.request("verify", args, timeout=300)
finally:
    client.close()
print("passed", result.get("passed"), "| error", json.dumps(result.get("error"))[:1500])
for case in result.get("cases") or []:
    kinds = [d.get("kind") for d in case.get("diagnoses") or []]
    print(f"{case.get('name', '?')[:60]:<60} {case.get('passed')} {kinds} {json.dumps(case.get('error'))[:300]}")
print((result.get("output") or "")[-3000:])
