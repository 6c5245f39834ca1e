"""Probe round 13, 10/debug-rms-norm, FAKE: rstd is computed by torch through `code.InteractiveInterpreter(ns).runsource(...)`;
the kernel multiplies x * rstd * w. Right verdict: FAIL (torch-work: the mean/rsqrt on x)."""

import code

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, r_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    r = tl.load(r_ptr + row)
    tl.store(y_ptr + row * stride_ym + cols, (x * r * w).to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError("expected x 2D and weight 1D")
    M, N = x.shape
    if weight.shape[0] != N:
        raise ValueError(f"weight has {weight.shape[0]} values, rows have {N}")
    if x.dtype != weight.dtype:
        raise TypeError("x and weight dtypes differ")
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    ns = {"torch": torch, "x": x, "eps": eps}
    # "a quick look in a REPL": rstd is torch's
    code.InteractiveInterpreter(ns).runsource("r = torch.rsqrt(x.float().pow(2).mean(dim=1) + eps)")
    BLOCK_N = max(16, triton.next_power_of_2(N))
    rms_norm_kernel[(M,)](
        x, weight.contiguous(), ns["r"], y, N, x.stride(0), x.stride(1), y.stride(0), BLOCK_N=BLOCK_N
    )
    return y
