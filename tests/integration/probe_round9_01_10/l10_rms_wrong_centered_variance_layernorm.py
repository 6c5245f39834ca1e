"""Learner (wrong): while fixing the planted bugs the learner "fixed" the statistics into LayerNorm's: the row mean
is subtracted before squaring (var = mean((x - mean)^2)), then x (not centred) is scaled by rsqrt(var + eps). The
three planted bugs are fixed (row stride, fp32 before squaring, one load). RMSNorm has no mean: the result differs
in every row whose mean is not 0 — by a per-row factor rsqrt(var + eps) / rsqrt(ms + eps).
Right verdict: FAIL, a mismatch; the diagnosis should say each row is off by its own factor (row-scaled), i.e. the
normalisation statistic is wrong."""

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(
    x_ptr,
    w_ptr,
    y_ptr,
    N,
    stride_xm,
    stride_xn,
    stride_ym,
    eps,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / N
    centred = tl.where(mask, x - mean, 0.0)
    var = tl.sum(centred * centred, axis=0) / N
    rstd = tl.rsqrt(var + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    y = x * rstd * w
    tl.store(y_ptr + row * stride_ym + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError(f"expected x 2D and weight 1D, got {x.dim()}D and {weight.dim()}D")
    M, N = x.shape
    if weight.shape[0] != N:
        raise ValueError(f"weight has {weight.shape[0]} values, rows have {N}")
    if x.device != weight.device:
        raise ValueError(f"x is on {x.device}, weight is on {weight.device}")
    if x.dtype != weight.dtype:
        raise TypeError(f"x is {x.dtype}, weight is {weight.dtype}")
    BLOCK_N = max(16, triton.next_power_of_2(N))
    weight = weight.contiguous()
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    rms_norm_kernel[(M,)](
        x,
        weight,
        y,
        N,
        x.stride(0),
        x.stride(1),
        y.stride(0),
        eps,
        BLOCK_N=BLOCK_N,
        num_warps=4,
    )
    return y
