"""Learner (wrong): the 2D mask compares each index with the other dimension's size,
(rows[:, None] < n_cols) & (cols[None, :] < n_rows): M and N swapped, a slip that a square input never shows.
With M = 33 rows of N = 3 columns (BLOCK_SIZE = 4) the column test lets column 3 through (it is < 33), so each
row's load runs one element into the next row (and past the end of x on the last row), while rows 3..32 are
masked out entirely and never stored. Right verdict: FAIL, stopping at the out-of-bounds load and naming the mask
(rows bounded by n_cols, columns by n_rows)."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    input_col_stride,
    output_row_stride,
    n_rows,
    n_cols,
    ROWS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    rows = tl.program_id(axis=0) * ROWS + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = (rows[:, None] < n_cols) & (cols[None, :] < n_rows)
    x_ptrs = input_ptr + rows[:, None] * input_row_stride + cols[None, :] * input_col_stride
    x = tl.load(x_ptrs, mask=mask, other=-float("inf")).to(tl.float32)
    row_max = tl.max(x, axis=1)
    numerator = tl.exp(x - row_max[:, None])
    denominator = tl.sum(numerator, axis=1)
    out = numerator / denominator[:, None]
    out_ptrs = output_ptr + rows[:, None] * output_row_stride + cols[None, :]
    tl.store(out_ptrs, out.to(output_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor, ROWS=None, num_warps=None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    block = triton.next_power_of_2(n_cols)
    rows = ROWS or min(max(1024 // block, 1), 4)
    softmax_rows_kernel[(triton.cdiv(n_rows, rows),)](
        output,
        x,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        n_rows,
        n_cols,
        ROWS=rows,
        BLOCK_SIZE=block,
        num_warps=num_warps or 4,
    )
    return output
