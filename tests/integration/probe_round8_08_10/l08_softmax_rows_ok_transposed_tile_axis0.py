"""Learner (correct but different): the tile is laid out [BLOCK_SIZE, ROWS], columns down axis 0 and the program's
rows across axis 1 (a column-major view of the same block, as one gets after a tl.trans). Each row of x is a
column of this tile, so both reductions run along axis 0 and broadcast back with [None, :] — the very spelling the
starter's TODO calls wrong, and right here because the tile is transposed. Loads, stores and masks use the same
transposed indexing. Right verdict: PASS."""

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
    rows = tl.program_id(axis=0) * ROWS + tl.arange(0, ROWS)  # [ROWS] along axis 1
    cols = tl.arange(0, BLOCK_SIZE)  # [BLOCK_SIZE] along axis 0
    mask = (cols[:, None] < n_cols) & (rows[None, :] < n_rows)  # [BLOCK_SIZE, ROWS]
    x_ptrs = input_ptr + cols[:, None] * input_col_stride + rows[None, :] * input_row_stride
    xt = tl.load(x_ptrs, mask=mask, other=-float("inf")).to(tl.float32)  # x^T tile
    col_max = tl.max(xt, axis=0)  # [ROWS]: one maximum per row of x
    numerator = tl.exp(xt - col_max[None, :])
    denominator = tl.sum(numerator, axis=0)
    out = numerator / denominator[None, :]
    out_ptrs = output_ptr + cols[:, None] + rows[None, :] * output_row_stride
    tl.store(out_ptrs, out.to(output_ptr.dtype.element_ty), mask=mask)


def pick_launch(n_cols: int) -> tuple[int, int, int]:
    block = triton.next_power_of_2(n_cols)
    if block <= 1024:
        rows = 1024 // block
        num_warps = 8 if block <= 128 else 4
    elif block == 2048:
        rows, num_warps = 2, 4
    elif block == 4096:
        rows, num_warps = 2, 16
    else:
        rows, num_warps = 1, 16
    return block, rows, num_warps


def softmax(x: torch.Tensor, ROWS=None, num_warps=None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    block, rows, warps = pick_launch(n_cols)
    if x.device.type == "cpu":
        rows, warps = min(rows, 4), 4
    rows = ROWS or rows
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
        num_warps=num_warps or warps,
    )
    return output
