"""Probe round 17a, 7/bias-add, WRONG: the 2D mask joins the row and column bounds with `|` instead of `&`:
`mask = (rows[:, None] < n_rows) | col_mask[None, :]` lets through every lane whose row OR column is in range,
so the tiles on the bottom and right edges read and write past x and the output (e.g. M = 1, N = 1: row 0 of
the 32 x 64 tile, columns 1..63). The b load's own mask is right."""

import torch
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(
    x_ptr,
    b_ptr,
    output_ptr,
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
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    col_mask = cols < n_cols
    mask = (rows[:, None] < n_rows) | col_mask[None, :]
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    b = tl.load(b_ptr + cols * stride_b, mask=col_mask)
    out = x + b[None, :]
    tl.store(output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, out, mask=mask)


def bias_add(x: torch.Tensor, b: torch.Tensor, BLOCK_M: int = 32, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2 or b.dim() != 1:
        raise ValueError(f"bias_add expects x 2D and b 1D, got {tuple(x.shape)} and {tuple(b.shape)}")
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
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))  # noqa: E731
    bias_add_kernel[grid](
        x,
        b,
        output,
        n_rows,
        n_cols,
        x.stride(0),
        x.stride(1),
        b.stride(0),
        output.stride(0),
        output.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return output
