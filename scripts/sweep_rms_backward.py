"""Sweep the launch choices of lesson 12's RMS norm backward on a GPU (programs per SM, warps, the dw stage).

    python scripts/sweep_rms_backward.py            # [8192, 4096] fp16 and bf16

Times only the two backward kernels (dx + partial dw, then dw) with triton.testing.do_bench, against torch autograd's
backward of F.rms_norm on the same data, and checks each variant's dx/dw against autograd before timing it. The dx
kernel is the one in kernels/rms_norm_backward.py; the dw stage is either one program per 128 columns looping over the
partial rows (the exercise's shape) or a 2D-tiled one (BLOCK_P partial rows × BLOCK_N columns per step; the reference
uses [64, 32] since 2026-12-03), both defined here.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("rb", ROOT / "kernels" / "rms_norm_backward.py")
rb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rb)


@triton.jit
def dw_rows_kernel(partial_ptr, dw_ptr, P, N, BLOCK_N: tl.constexpr):
    """The exercise's stage 2 (and the reference's until 2026-12-03): one partial row per step."""
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    total = tl.zeros([BLOCK_N], dtype=tl.float32)
    for p in range(P):
        total += tl.load(partial_ptr + p * N + cols, mask=cols < N, other=0.0)
    tl.store(dw_ptr + cols, total.to(dw_ptr.dtype.element_ty), mask=cols < N)


@triton.jit
def dw_2d_kernel(partial_ptr, dw_ptr, P, N, BLOCK_P: tl.constexpr, BLOCK_N: tl.constexpr):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros([BLOCK_P, BLOCK_N], dtype=tl.float32)
    for start in range(0, P, BLOCK_P):
        rows = start + tl.arange(0, BLOCK_P)
        mask = (rows[:, None] < P) & (cols[None, :] < N)
        acc += tl.load(partial_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.store(dw_ptr + cols, tl.sum(acc, axis=0).to(dw_ptr.dtype.element_ty), mask=cols < N)


def backward(dy, x, w, rstd, per_sm, warps, dw2d):
    M, N = x.shape
    dx = torch.empty_like(x)
    dw = torch.empty_like(w)
    BLOCK_N = triton.next_power_of_2(N)
    P = min(M, per_sm * torch.cuda.get_device_properties(0).multi_processor_count)
    partial = torch.empty((P, N), device=x.device, dtype=torch.float32)
    rb.rms_norm_bwd_dx_kernel[(P,)](dy, x, w, rstd, dx, partial, M, N, x.stride(0), BLOCK_N=BLOCK_N, num_warps=warps)
    if dw2d:
        bp, bn = dw2d
        dw_2d_kernel[(triton.cdiv(N, bn),)](partial, dw, P, N, BLOCK_P=bp, BLOCK_N=bn, num_warps=4)
    else:
        dw_rows_kernel[(triton.cdiv(N, 128),)](partial, dw, P, N, BLOCK_N=128)
    return dx, dw


def main() -> int:
    M, N = 8192, 4096
    rows = []
    print(torch.cuda.get_device_name(0), torch.__version__, triton.__version__)
    for dtype in (torch.float16, torch.bfloat16):
        g = torch.Generator(device="cuda").manual_seed(0)
        x = torch.randn(M, N, device="cuda", dtype=dtype, generator=g)
        w = torch.randn(N, device="cuda", dtype=dtype, generator=g)
        dy = torch.randn(M, N, device="cuda", dtype=dtype, generator=g)
        xt, wt = x.clone().requires_grad_(), w.clone().requires_grad_()
        yt = F.rms_norm(xt, (N,), wt, 1e-6)
        yt.backward(dy, retain_graph=True)
        ref_dx, ref_dw = xt.grad.clone(), wt.grad.clone()

        def torch_bwd():
            torch.autograd.grad(yt, (xt, wt), dy, retain_graph=True)

        t_torch = triton.testing.do_bench(torch_bwd, warmup=25, rep=200)
        _, rstd = rb.rms_norm_forward(x, w, 1e-6)
        print(f"{dtype}: torch autograd backward {t_torch * 1e3:.1f} us")
        for per_sm in (1, 2, 4):
            for warps in (4, 8, 16):
                for dw2d in (None, (32, 64), (64, 32)):
                    dx, dw = backward(dy, x, w, rstd, per_sm, warps, dw2d)
                    ok = (dx.float() - ref_dx.float()).abs().max().item() < 5e-2 and (
                        dw.float() - ref_dw.float()).abs().max().item() < 0.05 * max(1.0, ref_dw.float().abs().max().item())
                    t = triton.testing.do_bench(lambda: backward(dy, x, w, rstd, per_sm, warps, dw2d), warmup=25,
                                                rep=200)
                    row = dict(dtype=str(dtype), per_sm=per_sm, warps=warps, dw2d=dw2d, ok=ok, us=t * 1e3,
                               torch_us=t_torch * 1e3, ratio=t_torch / t)
                    rows.append(row)
                    print(f"  per_sm={per_sm} warps={warps:>2} dw={str(dw2d):<9} ok={ok} {t * 1e3:7.1f} us "
                          f"ratio {t_torch / t:.2f}x")
    print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
