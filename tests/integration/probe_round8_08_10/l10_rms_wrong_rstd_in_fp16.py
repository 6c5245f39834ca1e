"""Learner (wrong): the squares are summed in float32 (the numeric bug fixed), but the mean square is then "kept in
half precision, one number per row is enough": rstd = tl.math.rsqrt(mean_sq.to(tl.float16) + eps). eps, a scalar
argument, does not promote the sum back to float32, and tl.math.rsqrt (like tl.sqrt) takes float32 or float64
only: Triton refuses to compile it, in every dtype. (Had it compiled, a float16 mean square of the outlier row,
above 65504, would round to inf and zero the row.)
Right verdict: FAIL at compile time on the rsqrt line, saying it needs a float32 operand (keep the statistics in
float32)."""

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
    mean_sq = tl.sum(x * x, axis=0) / N
    rstd = tl.math.rsqrt(mean_sq.to(tl.float16) + eps)  # fp16 is enough for one number per row
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
    if BLOCK_N > 65536:
        raise ValueError(f"rows of {N} values do not fit one block")
    weight = weight.contiguous()
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    num_warps = 4 if BLOCK_N <= 2048 else (8 if BLOCK_N <= 8192 else 16)
    rms_norm_kernel[(M,)](
        x, weight, y, N, x.stride(0), x.stride(1), y.stride(0), eps, BLOCK_N=BLOCK_N, num_warps=num_warps
    )
    return y
