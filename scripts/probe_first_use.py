"""How much of a fresh GPU runner's time is torch's first use of each op (lazy CUDA module loading)?

    PYTHONPATH=. python3 scripts/probe_first_use.py     (a CUDA GPU)

Times vector add's verify inputs (rebuild + digest), the guarded placement and the equality checks, three
times in one fresh process: first use, second use, and after a warm-up of the same ops on tiny tensors in a
second fresh process.
"""

import subprocess
import sys

BODY = r"""
import time, torch, sys
from tritonlab.engine import exercise_env
from tritonlab.engine.inputs import case_inputs, digest
from tritonlab.engine.tasks import verify as V
from tritonlab.engine.tasks.verify_runner import _same
torch.cuda.init(); torch.empty(1, device="cuda"); torch.cuda.synchronize()
ex = exercise_env.catalog().exercise("5")
cases = list(V.iter_cases(ex, "gpu", None, 1234))
dev = torch.device("cuda")
def once():
    t = time.perf_counter()
    for params, dtype, seed, kw in cases:
        v = case_inputs(ex, params, dtype, seed, dev); digest(v)
        for k, x in v.items():
            if torch.is_tensor(x): _same(x.clone(), x)
    torch.cuda.synchronize()
    return round(time.perf_counter() - t, 4)
if sys.argv[1] == "warm":
    for dt in ("float32", "float16"):
        v = case_inputs(ex, {"n": 97}, dt, 0, dev); digest(v)
        for x in v.values():
            if torch.is_tensor(x): _same(x.clone(), x)
    torch.cuda.synchronize()
print(sys.argv[1], len(cases), "cases: first", once(), "second", once())
"""
for mode in ("cold", "warm"):
    print(subprocess.run([sys.executable, "-c", BODY, mode], capture_output=True, text=True).stdout.strip() or "failed")
