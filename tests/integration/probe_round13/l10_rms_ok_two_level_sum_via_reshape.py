"""Probe round 13, 10/debug-rms-norm, CORRECT: the row's sum of squares is taken in two levels through
tl.reshape(x * x, (BLOCK_N // 16, 16)); rstd = 1 / sqrt(mean + eps) instead of rsqrt. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, eps, BLOCK_N: tl.constexpr):
    # the row stays in one block (read once); its sum of squares is taken in two levels: the block is
    # reshaped to [BLOCK_N // 16, 16], each 16-wide slice summed, then the slice totals summed
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    per_slice = tl.sum(tl.reshape(x * x, (BLOCK_N // 16, 16)), axis=1)
    mean_sq = tl.sum(per_slice, axis=0) / N
    rstd = 1.0 / tl.sqrt(mean_sq + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_ym + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError("expected x 2D and weight 1D")
    M, N = x.shape
    if weight.shape[0] != N:
        raise ValueError(f"weight has {weight.shape[0]} values, rows have {N}")
    if x.device != weight.device:
        raise ValueError("x and weight are on different devices")
    if x.dtype != weight.dtype:
        raise TypeError("x and weight dtypes differ")
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    BLOCK_N = max(16, triton.next_power_of_2(N))
    rms_norm_kernel[(M,)](
        x, weight.contiguous(), y, N, x.stride(0), x.stride(1), y.stride(0), eps, BLOCK_N=BLOCK_N
    )
    return y
