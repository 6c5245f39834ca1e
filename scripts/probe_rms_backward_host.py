"""Where lesson 12's backward loses to torch through autograd: GPU time vs host time per call.

    PYTHONPATH=. python3 scripts/probe_rms_backward_host.py      (a CUDA GPU; ~40 s)

gpu-only   the two backward kernels replayed from a CUDA graph (no host work): the GPU's own time
host/call  wall time per call at M = 8 rows (the GPU finishes at once, so the host is the limit), 2000 calls
full       do_bench at [8192, 4096], the function as a learner's bench would call it
Variants: `direct` rms_norm_backward(...) on this thread; `autograd` y.backward(dy) through the Function;
`compiled` the same Function but each kernel launched as a CompiledKernel cached per signature (no JIT
dispatch); `torch` autograd's backward of F.rms_norm.
"""

import importlib.util
import time
from pathlib import Path

import torch
import torch.nn.functional as F
import triton
from triton.testing import do_bench

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("rb", ROOT / "kernels" / "rms_norm_backward.py")
rb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rb)


def compiled_module():
    spec = importlib.util.spec_from_file_location("rbc", ROOT / "kernels" / "rms_norm_backward.py")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    cache = {}

    def launch(kernel, grid, args, consts):
        key = (kernel.fn.__name__, grid, tuple((a.dtype, a.stride(-1) == 1) if torch.is_tensor(a) else (type(a), a) for a in args), tuple(consts.items()))
        k = cache.get(key)
        if k is None:
            k = kernel.warmup(*args, grid=grid, **consts)
            k._init_handles()
            cache[key] = k
        k[grid](*args, *[v for n, v in consts.items() if n not in ("num_warps", "num_stages")])

    def backward(dy, x, weight, rstd):
        M, N = x.shape
        dy = dy.contiguous()
        dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
        dw = torch.empty((N,), device=weight.device, dtype=weight.dtype)
        BLOCK_N, num_warps = m._row_block(N)
        P = max(1, min(m._programs(x.device), M))
        partial = torch.empty((P, N), device=x.device, dtype=torch.float32)
        launch(m.rms_norm_bwd_dx_kernel, (P, 1, 1), (dy, x, weight, rstd, dx, partial, M, N, x.stride(0)),
               {"BLOCK_N": BLOCK_N, "num_warps": num_warps})
        launch(m.rms_norm_bwd_dw_kernel, (triton.cdiv(N, 32), 1, 1), (partial, dw, P, N), {"BLOCK_N": 32, "BLOCK_P": 64})
        return dx, dw

    m.rms_norm_backward = backward
    return m


def per_call_host(fn, calls=2000):
    for _ in range(50):
        fn()
    torch.cuda.synchronize()
    t = time.perf_counter()
    for _ in range(calls):
        fn()
    torch.cuda.synchronize()
    return (time.perf_counter() - t) / calls * 1e6


def make(M, N, dtype, module):
    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen).requires_grad_()
    w = torch.randn(N, device="cuda", dtype=dtype, generator=gen).requires_grad_()
    dy = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
    y = F.rms_norm(x, (N,), w, 1e-6) if module is None else module.rms_norm(x, w, 1e-6)

    def run():
        x.grad = None
        w.grad = None
        y.backward(dy, retain_graph=True)

    return run, (x, w, dy)


cm = compiled_module()
print(torch.cuda.get_device_name(0), torch.__version__, triton.__version__)
for dtype in (torch.float16, torch.bfloat16):
    print(f"== {dtype}")
    # gpu-only: the reference's two kernels from a CUDA graph
    M, N = 8192, 4096
    gen = torch.Generator(device="cuda").manual_seed(0)
    x = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
    w = torch.randn(N, device="cuda", dtype=dtype, generator=gen)
    dy = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
    _, rstd = rb.rms_norm_forward(x, w, 1e-6)
    rb.rms_norm_backward(dy, x, w, rstd)
    s = torch.cuda.Stream()
    s.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(s):
        rb.rms_norm_backward(dy, x, w, rstd)
    torch.cuda.current_stream().wait_stream(s)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        rb.rms_norm_backward(dy, x, w, rstd)
    print(f"gpu-only (graph replay)   {do_bench(g.replay, warmup=50, rep=300) * 1e3:7.1f} µs")
    print(f"direct, full              {do_bench(lambda: rb.rms_norm_backward(dy, x, w, rstd), warmup=50, rep=300) * 1e3:7.1f} µs")
    for name, module in (("autograd", rb), ("compiled", cm), ("torch", None)):
        small, _ = make(8, 4096, dtype, module)
        full, _ = make(M, N, dtype, module)
        host = per_call_host(small)
        fulls = [do_bench(full, warmup=50, rep=300) * 1e3 for _ in range(3)]
        print(f"{name:<9} host/call {host:6.1f} µs   full {' '.join(f'{v:6.1f}' for v in fulls)} µs")
    xs, ws, dys = make(8, 4096, dtype, rb)[1]
    _, r8 = rb.rms_norm_forward(xs.detach(), ws.detach(), 1e-6)
    print(f"direct    host/call {per_call_host(lambda: rb.rms_norm_backward(dys, xs.detach(), ws.detach(), r8)):6.1f} µs")
    print(f"empty x3  host/call {per_call_host(lambda: (torch.empty(8, 4096, device='cuda'), torch.empty(4096, device='cuda'), torch.empty(264, 4096, device='cuda'))):6.1f} µs")
    # correctness of the compiled-launch variant
    a, (xa, wa, _) = make(512, 4096, dtype, cm)
    b, (xb, wb, _) = make(512, 4096, dtype, rb)
    a(); b()
    print("compiled == reference:", torch.equal(xa.grad, xb.grad) and torch.equal(wa.grad, wb.grad))
