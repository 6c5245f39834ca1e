"""Probe round 16b, 8/softmax-rows, WRONG: the kernel's rows are `tl.program_id(0) + tl.arange(0, ROWS)` (the
`* ROWS` forgotten): program p handles rows p .. p + ROWS - 1, so neighbouring programs overlap and the grid of
cdiv(n_rows, ROWS) programs reaches only row cdiv(n_rows, ROWS) + ROWS - 2. The grid is right; the ROWS = 1
variant passes. M = 33, ROWS = 4: rows 12..32 never written.
Right verdict: FAIL, rows never written, pointing at the kernel's row index (`rows = ...` line), not the grid."""

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
    rows = tl.program_id(axis=0) + tl.arange(0, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x_ptrs = input_ptr + rows[:, None] * input_row_stride + cols[None, :] * input_col_stride
    x = tl.load(x_ptrs, mask=mask, other=-float("inf")).to(tl.float32)
    row_max = tl.max(x, axis=1)
    numerator = tl.exp(x - row_max[:, None])
    denominator = tl.sum(numerator, axis=1)
    out = numerator / denominator[:, None]
    out_ptrs = output_ptr + rows[:, None] * output_row_stride + cols[None, :]
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
