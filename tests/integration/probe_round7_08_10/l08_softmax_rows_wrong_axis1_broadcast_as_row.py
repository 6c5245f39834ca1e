"""Learner (wrong): fixed the reductions to run along axis 1, but broadcast the [ROWS] results back with [None, :]
(as a row) where hint 2 says [:, None]. With ROWS = 1 it is right; for N = 1 (BLOCK_SIZE 1, tile [4, 1]) the
broadcast silently makes a [4, 4] tile that no longer matches the [4, 1] pointers, and for N = 3 (BLOCK_SIZE 4 =
ROWS) it is a wrong [4, 4] softmax with every row normalised by the other rows' statistics.
Right verdict: FAIL, with the first diagnosis on the row_max[None, :] / denominator[None, :] broadcast (the axis of
the broadcast), not only on the tl.store the shape error surfaces at."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(
    output_ptr,  # pointer to out[0, 0]
    input_ptr,  # pointer to x[0, 0]
    input_row_stride,  # elements between x[i, 0] and x[i + 1, 0]
    input_col_stride,  # elements between x[i, j] and x[i, j + 1]
    output_row_stride,  # elements between out[i, 0] and out[i + 1, 0]
    n_rows,  # M
    n_cols,  # N
    ROWS: tl.constexpr,  # rows per program
    BLOCK_SIZE: tl.constexpr,  # a power of two >= n_cols: a whole row in one block
):
    rows = tl.program_id(axis=0) * ROWS + tl.arange(0, ROWS)  # [ROWS]
    cols = tl.arange(0, BLOCK_SIZE)  # [BLOCK_SIZE]
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)  # [ROWS, BLOCK_SIZE]
    x_ptrs = input_ptr + rows[:, None] * input_row_stride + cols[None, :] * input_col_stride
    x = tl.load(x_ptrs, mask=mask, other=-float("inf")).to(tl.float32)
    row_max = tl.max(x, axis=1)
    numerator = tl.exp(x - row_max[None, :])
    denominator = tl.sum(numerator, axis=1)
    out = numerator / denominator[None, :]
    out_ptrs = output_ptr + rows[:, None] * output_row_stride + cols[None, :]
    tl.store(out_ptrs, out.to(output_ptr.dtype.element_ty), mask=mask)


def pick_launch(n_cols: int) -> tuple[int, int, int]:
    """(BLOCK_SIZE, ROWS, num_warps), the best measured on an H200 at 32 M randn values (docs/GPU-RESULTS.md):
    about 1,024 values per program up to rows of 1,024, then 4,096-8,192 values; 4 warps for short rows, 16 for
    long ones. The whole row always fits in one block: the values stay in registers between the max, the exp and
    the sum, so each byte is read once and written once."""
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
    """Row-wise softmax of the 2D tensor x (over the last dimension), like torch.softmax(x, dim=-1)."""
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    block, rows, warps = pick_launch(n_cols)
    if x.device.type == "cpu":  # the interpreter: a few rows per program still exercises the 2D masks
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
