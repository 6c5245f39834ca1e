"""Does CUDA IPC (engine/cuda_ipc.py) carry a runner's outputs to the judge on this GPU, and how fast?

    PYTHONPATH=. python3 scripts/probe_cuda_ipc.py      (a CUDA GPU; ~20 s)

An exporter child (non-dumpable like a runner, then dumpable; with the runner's seccomp filter) shares tensors
shaped like vector add's verify outputs; this process maps, copies, compares and times them against
torch.save/torch.load of the same tensors; then forged descriptors must raise IpcError, not fault.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import torch

from tritonlab.engine import cuda_ipc

CHILD = r"""
import json, sys, ctypes, torch
from tritonlab.engine import cuda_ipc, sandbox
dumpable = int(sys.argv[1]); sandbox._prctl(4, dumpable)  # PR_SET_DUMPABLE
if sys.argv[2] == "1": sandbox.guard_signals()
g = torch.Generator(device="cuda").manual_seed(0)
sizes = [1, 97, 1024, 4097, 65536, 1 << 20, 1 << 24]
payload = {}
for i, n in enumerate(sizes * 2):
    dt = torch.float32 if i < len(sizes) else torch.float16
    payload[f"t{i}"] = torch.randn(n, generator=g, device="cuda").to(dt)
payload["nested"] = {"T": torch.randn(300, 200, device="cuda").t(), "b": torch.ones(5, device="cuda", dtype=torch.bool),
                     "bf": torch.randn(333, device="cuda").to(torch.bfloat16)}
sums = {k: float(v.double().sum()) for k, v in payload.items() if torch.is_tensor(v)}
sums.update({"nested." + k: float(v.double().sum()) for k, v in payload["nested"].items()})
s = cuda_ipc.Sharer()
rest, shared = s.split(payload)
print(json.dumps({"shared": shared, "sums": sums, "rest": list(rest)}), flush=True)
sys.stdin.readline()
"""


def one(dumpable: int, seccomp: str) -> dict:
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(dumpable), seccomp], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    line = child.stdout.readline()
    if not line:
        child.kill()
        return {"ok": False, "error": child.stderr.read()[-1500:]}
    sent = json.loads(line)
    opener = cuda_ipc.Opener("cuda")
    began = time.perf_counter()
    try:
        got = opener.payload(sent["shared"])
        torch.cuda.synchronize()
        took = time.perf_counter() - began
        flat = {k: v for k, v in got.items() if torch.is_tensor(v)}
        flat.update({"nested." + k: v for k, v in got.get("nested", {}).items()})
        bad = [k for k, v in flat.items() if abs(float(v.double().sum()) - sent["sums"][k]) > 1e-6 * max(1, abs(sent["sums"][k]))]
        layout = got["nested"]["T"].stride()
        opener.close()
        result = {"ok": not bad and len(flat) == len(sent["sums"]), "bad": bad, "n": len(flat), "ms": round(took * 1e3, 2),
                  "mapped": len(opener.mapped), "T_strides": layout}
    except cuda_ipc.IpcError as exc:
        result = {"ok": False, "error": str(exc)}
    # forged descriptors: past the allocation, a garbage handle, a bad dtype -> IpcError, never a fault
    forged = []
    d = dict(sent["shared"]["t0"])
    for change in ({"offset": 1 << 40}, {"shape": [1 << 30]}, {"handle": "00" * 64}, {"dtype": "torch.complex64"}, {"strides": [-1]}):
        o = cuda_ipc.Opener("cuda")
        try:
            o.tensor(dict(d, **change))
            forged.append((list(change)[0], "ACCEPTED"))
        except cuda_ipc.IpcError as exc:
            forged.append((list(change)[0], "refused"))
        o.close()
    result["forged"] = forged
    child.stdin.write("\n"); child.stdin.flush(); child.wait(10)
    return result


def files() -> float:
    g = torch.Generator(device="cuda").manual_seed(0)
    payload = {f"t{i}": torch.randn(n, generator=g, device="cuda") for i, n in enumerate([1, 97, 1024, 4097, 65536, 1 << 20, 1 << 24] * 2)}
    with tempfile.TemporaryDirectory() as d:
        began = time.perf_counter()
        torch.save(payload, d + "/p.pt")
        saved = time.perf_counter()
        torch.load(d + "/p.pt", weights_only=True, map_location="cuda")
        torch.cuda.synchronize()
        return round((saved - began) * 1e3, 1), round((time.perf_counter() - saved) * 1e3, 1)


torch.cuda.init(); torch.empty(1, device="cuda")
print("available", cuda_ipc.available())
for dumpable, sec in ((0, "1"), (1, "1"), (0, "0")):
    print(f"exporter dumpable={dumpable} seccomp={sec}:", json.dumps(one(dumpable, sec)))
print("torch.save / torch.load ms (same 14 tensors, fp32):", files())
