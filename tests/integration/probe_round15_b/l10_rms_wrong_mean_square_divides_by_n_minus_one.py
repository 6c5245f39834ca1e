"""Probe round 15b, 10/debug-rms-norm, WRONG: the three planted bugs are fixed (row start by stride_xm, fp32
statistics, one load of x), but the mean square is divided by N - 1 (the unbiased-variance habit from torch.var).
Every row's rstd is sqrt((N - 1) / N) of the right one: about 3 % low at N = 17, 0.17 % at N = 300, 0.05 % at
N = 1000 (inside the fp16/bf16 tolerance there); at N = 1 it divides by zero.
Right verdict: FAIL, every element scaled by a per-case constant factor that depends on N, pointing at the mean
(the sum_sq / (N - 1) line)."""

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
    tl.static_assert(BLOCK_N >= 16, "BLOCK_N is the row block; keep it a power of two of at least 16")
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x_row_ptr = x_ptr + row * stride_xm

    x = tl.load(x_row_ptr + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    sum_sq = tl.sum(x * x, axis=0)
    mean_sq = sum_sq / (N - 1)
    rstd = 1.0 / tl.sqrt(mean_sq + eps)

    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    y = x * rstd * w
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
    BLOCK_N = max(16, triton.next_power_of_2(N))
    if BLOCK_N > 65536:
        raise ValueError(f"rows of {N} values do not fit one block; this kernel keeps a row in registers")
    weight = weight.contiguous()
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    num_warps = 4 if BLOCK_N <= 2048 else (8 if BLOCK_N <= 8192 else 16)
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
        num_warps=num_warps,
    )
    return y
