"""Why a Python autograd.Function's backward costs ~110 µs more host time than calling it directly (H200,
2026-12-03: lesson 12's backward, 167 µs per call through y.backward at M = 8 rows vs 56 µs direct).

    PYTHONPATH=. python3 scripts/probe_autograd_host.py     (a CUDA GPU; ~30 s)

Host µs per call at a tiny size (the GPU is never the limit), 2000 calls each.
"""

import importlib.util
import threading
import time
from pathlib import Path

import torch
import torch.nn.functional as F

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("rb", ROOT / "kernels" / "rms_norm_backward.py")
rb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rb)


def host(fn, calls=2000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / calls * 1e6


class TorchOnly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensors
        return dy * w, (dy * x).sum(0)


class Nothing(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.shape = x.shape
        return x * w

    @staticmethod
    def backward(ctx, dy):
        return dy, None


M, N = 8, 4096
dt = torch.float16
x = torch.randn(M, N, device="cuda", dtype=dt).requires_grad_()
w = torch.randn(N, device="cuda", dtype=dt).requires_grad_()
dy = torch.randn(M, N, device="cuda", dtype=dt)


def through(y):
    def run():
        x.grad = None
        w.grad = None
        y.backward(dy, retain_graph=True)

    return run


xd, wd = x.detach(), w.detach()
_, rstd = rb.rms_norm_forward(xd, wd, 1e-6)
rows = []
rows.append(("direct rms_norm_backward (main thread)", host(lambda: rb.rms_norm_backward(dy, xd, wd, rstd))))
res = {}


def in_thread():
    res["t"] = host(lambda: rb.rms_norm_backward(dy, xd, wd, rstd))


t = threading.Thread(target=in_thread)
t.start()
t.join()
rows.append(("direct rms_norm_backward (another thread)", res["t"]))
rows.append(("autograd: Function, backward = our kernels", host(through(rb.rms_norm(x, w, 1e-6)))))
spec_one = importlib.util.spec_from_file_location("rb1", ROOT / "kernels" / "rms_norm_backward_one_launch.py")
rb1 = importlib.util.module_from_spec(spec_one)
spec_one.loader.exec_module(rb1)
rows.append(("direct one-launch backward (main thread)", host(lambda: rb1.rms_norm_backward(dy, xd, wd, rstd))))
rows.append(("autograd: Function, backward = one launch", host(through(rb1.rms_norm(x, w, 1e-6)))))
rows.append(("autograd: Function, backward = torch ops", host(through(TorchOnly.apply(x, w)))))
rows.append(("autograd: Function, backward returns dy", host(through(Nothing.apply(x, w)))))
rows.append(("autograd: torch F.rms_norm", host(through(F.rms_norm(x, (N,), w, 1e-6)))))
spec_op = importlib.util.spec_from_file_location("rbo", ROOT / "kernels" / "rms_norm_op.py")
rbo = importlib.util.module_from_spec(spec_op)
spec_op.loader.exec_module(rbo)
rows.append(("autograd: triton_op + register_autograd (12b)", host(through(rbo.rms_norm(x, w, 1e-6)))))


class EmptiesOnly(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return x * w

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensors
        return torch.empty_like(x), torch.empty_like(w)


rows.append(("autograd: Function, backward = two empty_like", host(through(EmptiesOnly.apply(x, w)))))
with torch.autograd.set_multithreading_enabled(False):
    rows.append(("no autograd threads: Function, our kernels", host(through(rb.rms_norm(x, w, 1e-6)))))
    rows.append(("no autograd threads: torch F.rms_norm", host(through(F.rms_norm(x, (N,), w, 1e-6)))))
import sys
print(sys.version.split()[0], torch.__version__, "switchinterval", sys.getswitchinterval())
for name, us in rows:
    print(f"{name:<46} {us:7.1f} µs/call")
