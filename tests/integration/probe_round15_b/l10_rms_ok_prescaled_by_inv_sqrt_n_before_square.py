"""Probe round 15b, 10/debug-rms-norm, CORRECT: the three bugs fixed in a different way: each value is scaled by
1/sqrt(N) before squaring, so the sum of squares is already the mean square (no division by N afterwards); the weight
is read through its own stride (no .contiguous() copy in the wrapper); the row offset is int64; y = (x * w) * rstd.
Right verdict: PASS."""

import math

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
    stride_w,
    stride_ym,
    eps,
    inv_sqrt_n,  # 1 / sqrt(N), computed on the host in double precision
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(axis=0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    xs = x * inv_sqrt_n
    mean_square = tl.sum(xs * xs, axis=0)
    rstd = tl.rsqrt(mean_square + eps)
    w = tl.load(w_ptr + cols * stride_w, mask=mask, other=0.0).to(tl.float32)
    y = (x * w) * rstd
    tl.store(y_ptr + row * stride_ym + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, weight, eps=1e-6):
    """RMSNorm over the last dimension of a 2D tensor x [M, N] with a weight of N values."""
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError(f"expected x 2D and weight 1D, got {x.dim()}D and {weight.dim()}D")
    M, N = x.shape
    if weight.shape[0] != N:
        raise ValueError(f"weight has {weight.shape[0]} values, rows have {N}")
    if x.device != weight.device:
        raise ValueError(f"x is on {x.device}, weight is on {weight.device}")
    if x.dtype != weight.dtype:
        raise TypeError(f"x is {x.dtype}, weight is {weight.dtype}")
    BLOCK_N = triton.next_power_of_2(N)
    if BLOCK_N > 65536:
        raise ValueError(f"rows of {N} values do not fit one block; this kernel keeps a row in registers")
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
        weight.stride(0),
        y.stride(0),
        eps,
        1.0 / math.sqrt(N),
        BLOCK_N=BLOCK_N,
        num_warps=4 if BLOCK_N <= 2048 else 8,
    )
    return y
