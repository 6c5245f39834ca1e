"""Learner: validate first (shapes, devices, a TypeError for dtypes), then make x contiguous (`x.contiguous()` copies
the transposed view) and b a float32 copy (`b.float()`); the kernel still takes x's column stride but, x being
contiguous now, steps columns by 1 and never reads stride_xn. The tile adds the float32 bias row and rounds once.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(
    x_ptr,
    b_ptr,
    out_ptr,
    n_rows,
    n_cols,
    stride_xm,
    stride_xn,
    stride_b,
    stride_om,
    stride_on,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    rows = tl.program_id(axis=0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(axis=1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :], mask=mask).to(tl.float32)
    b = tl.load(b_ptr + cols * stride_b, mask=cols < n_cols)
    out = x + b[None, :]
    tl.store(
        out_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on,
        out.to(out_ptr.dtype.element_ty),
        mask=mask,
    )


def bias_add(x, b, BLOCK_M=32, BLOCK_N=64):
    if x.dim() != 2 or b.dim() != 1:
        raise ValueError("x must be 2D and b 1D")
    if b.shape[0] != x.shape[1]:
        raise ValueError(f"b has {b.shape[0]} values, x has {x.shape[1]} columns")
    if x.device != b.device:
        raise ValueError("x and b are on different devices")
    if x.dtype != b.dtype:
        raise TypeError(f"x is {x.dtype}, b is {b.dtype}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    xc = x.contiguous()
    b32 = b.float()
    grid = (triton.cdiv(n_rows, BLOCK_M), triton.cdiv(n_cols, BLOCK_N))
    bias_add_kernel[grid](
        xc,
        b32,
        out,
        n_rows,
        n_cols,
        xc.stride(0),
        xc.stride(1),
        b32.stride(0),
        out.stride(0),
        out.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return out
