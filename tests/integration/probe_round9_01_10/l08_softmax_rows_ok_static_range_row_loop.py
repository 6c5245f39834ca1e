"""Learner (correct, different): instead of one [ROWS, BLOCK_SIZE] tile reduced along axis 1, each program runs
the 1D five-step softmax of lesson 8 once per row, in a tl.static_range(ROWS) loop (unrolled at compile time). A
row past the end is switched off by a scalar condition folded into the column mask.
Right verdict: PASS."""

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
    first = tl.program_id(axis=0) * ROWS
    cols = tl.arange(0, BLOCK_SIZE)
    for r in tl.static_range(ROWS):
        row = first + r
        mask = (cols < n_cols) & (row < n_rows)
        x = tl.load(
            input_ptr + row * input_row_stride + cols * input_col_stride, mask=mask, other=-float("inf")
        )
        x = x.to(tl.float32)
        z = x - tl.max(x, axis=0)
        num = tl.exp(z)
        out = num / tl.sum(num, axis=0)
        tl.store(output_ptr + row * output_row_stride + cols, out.to(output_ptr.dtype.element_ty), mask=mask)


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
