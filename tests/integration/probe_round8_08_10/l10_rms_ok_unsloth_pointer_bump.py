"""Learner (correct but different): Unsloth's rms_layernorm forward style. The row's pointers are bumped once at
the top (x_ptr += row * stride_xm, y_ptr += row * stride_ym, with the row id widened to int64 first), then every
access is base + col_offsets; the statistics are in float32, inv_var = tl.math.rsqrt(mean_sq + eps), and the
weight multiplies the normalised row in float32 before one rounding. One read of x, one of the weight, one write.
Right verdict: PASS."""

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
    row = tl.program_id(0).to(tl.int64)
    x_ptr += row * stride_xm
    y_ptr += row * stride_ym
    col_offsets = tl.arange(0, BLOCK_N)
    mask = col_offsets < N
    x_row = tl.load(x_ptr + col_offsets * stride_xn, mask=mask, other=0.0).to(tl.float32)
    w_row = tl.load(w_ptr + col_offsets, mask=mask, other=0.0).to(tl.float32)
    row_var = tl.sum(x_row * x_row, axis=0) / N
    inv_var = tl.math.rsqrt(row_var + eps)
    normed = x_row * inv_var
    tl.store(y_ptr + col_offsets, (normed * w_row).to(y_ptr.dtype.element_ty), mask=mask)


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
