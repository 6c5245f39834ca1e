"""Probe round 15a, 7/bias-add, CORRECT: the grid puts the column tiles on axis 0 and the row tiles on axis 1
(neighbouring programs share b's slice), the addresses are built in int64, b is loaded once per tile and the
sum is done in float32 and rounded once at the store. Validation raises before anything is allocated.
Right verdict: PASS."""

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
    pid_n = tl.program_id(axis=0)
    pid_m = tl.program_id(axis=1)
    rows = pid_m.to(tl.int64) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n.to(tl.int64) * BLOCK_N + tl.arange(0, BLOCK_N)
    row_ok = rows < n_rows
    col_ok = cols < n_cols
    bias = tl.load(b_ptr + cols * stride_b, mask=col_ok, other=0.0).to(tl.float32)
    mask = row_ok[:, None] & col_ok[None, :]
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask, other=0.0)
    out = x.to(tl.float32) + bias[None, :]
    out_ptrs = output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on
    tl.store(out_ptrs, out.to(output_ptr.dtype.element_ty), mask=mask)


def bias_add(x: torch.Tensor, b: torch.Tensor, BLOCK_M: int = 32, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2 or b.dim() != 1:
        raise ValueError(f"need x 2D and b 1D, got {tuple(x.shape)} and {tuple(b.shape)}")
    if b.shape[0] != x.shape[1]:
        raise ValueError(f"b has {b.shape[0]} elements, x has {x.shape[1]} columns")
    if x.device != b.device:
        raise ValueError(f"x is on {x.device}, b on {b.device}")
    if x.dtype != b.dtype:
        raise TypeError(f"x is {x.dtype}, b is {b.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_cols, meta["BLOCK_N"]), triton.cdiv(n_rows, meta["BLOCK_M"]))  # noqa: E731
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
