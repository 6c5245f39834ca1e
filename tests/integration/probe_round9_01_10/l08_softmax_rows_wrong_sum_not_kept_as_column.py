"""Learner (wrong): the learner fixed the axis of both reductions (axis=1) and broadcast the max back as a column,
but divides by the sum as it comes out of tl.sum, a [ROWS] vector: numerator / denominator broadcasts it along the
LAST axis, as a row, so column j is divided by row j's sum. With ROWS = 1 ([1, B] / [1]) it happens to be right;
with ROWS = 4 and BLOCK_SIZE = 4 ([4, 4] / [4]) every value is divided by another row's sum; other shapes do not
broadcast at all.
Right verdict: FAIL, on the division line (the sum must be kept as a column: denominator[:, None])."""

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
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x_ptrs = input_ptr + rows[:, None] * input_row_stride + cols[None, :] * input_col_stride
    x = tl.load(x_ptrs, mask=mask, other=-float("inf")).to(tl.float32)
    row_max = tl.max(x, axis=1)
    numerator = tl.exp(x - row_max[:, None])
    denominator = tl.sum(numerator, axis=1)
    out = numerator / denominator
    out_ptrs = output_ptr + rows[:, None] * output_row_stride + cols[None, :]
    tl.store(out_ptrs, out.to(output_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor, ROWS=None, num_warps=None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    block = triton.next_power_of_2(n_cols)
    rows = ROWS or max(1, min(4, 1024 // block))
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
