"""The 10/autotune-matmul solution on Triton's interpreter in a plain process: no lab, no fork, no sandbox.

On the H200 box every 10/autotune-matmul verify on the interpreter died of SIGINT (eighth session, run l),
while it passes on CPU boxes (triton 3.6 + numpy 2.4, triton 3.9). If this script dies the same way, the lab
is not the cause; a thread waits for SIGINT with sigwaitinfo and prints who sent it. Not a test.
Run: TRITON_INTERPRET=1 python3 scripts/debug_autotune_direct.py [raw|lab|standin]
"""

import os
import signal
import sys
import threading
import time

assert os.environ.get("TRITON_INTERPRET") == "1", "set TRITON_INTERPRET=1 before triton is imported"
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # every thread started from here blocks it too


def watch() -> None:
    info = signal.sigwaitinfo({signal.SIGINT})
    print(f"SIGINT received: from pid {info.si_pid} uid {info.si_uid} code {info.si_code}", flush=True)
    try:
        with open(f"/proc/{info.si_pid}/cmdline", "rb") as handle:
            print("sender:", handle.read().replace(b"\0", b" ")[:300], flush=True)
    except OSError as exc:
        print("sender gone:", exc, flush=True)
    os._exit(3)


threading.Thread(target=watch, daemon=True).start()

import torch  # noqa: E402
from triton.runtime import driver  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "kernels"))
MODE = (sys.argv[1:] or ["raw"])[
    0
]  # raw: triton alone; lab: the lab's interpreter repairs; standin: + CPU driver
if MODE in ("lab", "standin"):
    from tritonlab.engine import interpreter_support

    if MODE == "standin":
        os.environ["TRITONLAB_INTERP_DRIVER"] = "standin"
    interpreter_support.prepare_interpreter()
try:
    print("mode:", MODE, "driver:", type(driver.active).__name__, flush=True)
except RuntimeError as exc:
    print("mode:", MODE, "no driver:", exc, flush=True)
    sys.exit(0)
import autotune_matmul  # noqa: E402

for M, N, K in ((1, 1, 1), (63, 129, 31), (128, 128, 64)):
    began = time.monotonic()
    a = torch.randn(M, K, dtype=torch.float16)
    b = torch.randn(K, N, dtype=torch.float16)
    c = autotune_matmul.matmul(a, b)
    error = (c.float() - a.float() @ b.float()).abs().max().item()
    print(f"M={M} N={N} K={K}: max error {error:.3g}, {time.monotonic() - began:.1f}s", flush=True)
print("done", flush=True)
