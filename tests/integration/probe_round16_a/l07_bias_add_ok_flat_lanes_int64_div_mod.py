"""Lesson 7, a learner's version: one flat block of lanes over the M * N outputs (int64), row = k // N,
col = k % N, x read through its strides, b indexed by the column, the row-major output written at k."""

import torch
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(
    x_ptr, b_ptr, output_ptr, n_rows, n_cols, stride_xm, stride_xn, stride_b, BLOCK: tl.constexpr
):
    pid = tl.program_id(axis=0).to(tl.int64)
    k = pid * BLOCK + tl.arange(0, BLOCK).to(tl.int64)
    mask = k < n_rows * n_cols
    row = k // n_cols
    col = k % n_cols
    x = tl.load(x_ptr + row * stride_xm + col * stride_xn, mask=mask)
    b = tl.load(b_ptr + col * stride_b, mask=mask)
    tl.store(output_ptr + k, x + b, mask=mask)


def bias_add(x: torch.Tensor, b: torch.Tensor, BLOCK_M: int = 32, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2 or b.dim() != 1:
        raise ValueError("bias_add expects x 2D and b 1D")
    if b.shape[0] != x.shape[1]:
        raise ValueError(f"b has {b.shape[0]} elements but x has {x.shape[1]} columns")
    if x.device != b.device:
        raise ValueError(f"x is on {x.device} but b is on {b.device}")
    if x.dtype != b.dtype:
        raise TypeError(f"dtypes differ: x is {x.dtype}, b is {b.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    block = BLOCK_M * BLOCK_N
    grid = (triton.cdiv(n_rows * n_cols, block),)
    bias_add_kernel[grid](x, b, output, n_rows, n_cols, x.stride(0), x.stride(1), b.stride(0), BLOCK=block)
    return output
