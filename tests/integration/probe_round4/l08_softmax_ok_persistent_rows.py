"""Learner: at most 4 programs; each walks rows pid, pid + 4, ... with tl.range and tl.num_programs."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(
    output_ptr,  # pointer to out[0, 0]
    input_ptr,  # pointer to x[0, 0]
    input_row_stride,  # elements between x[i, 0] and x[i + 1, 0]
    input_col_stride,  # elements between x[i, j] and x[i, j + 1] (1 for a contiguous row)
    output_row_stride,  # elements between out[i, 0] and out[i + 1, 0]
    n_cols,  # N: length of each row
    n_rows,  # M: rows to walk
    BLOCK_SIZE: tl.constexpr,  # a power of two >= n_cols: the whole row in one block
):
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    for row_idx in tl.range(tl.program_id(axis=0), n_rows, tl.num_programs(axis=0)):
        row_ptrs = input_ptr + row_idx * input_row_stride + col_offsets * input_col_stride
        row = tl.load(row_ptrs, mask=mask, other=-float("inf")).to(tl.float32)
        numerator = tl.exp(row - tl.max(row, axis=0))
        out = numerator / tl.sum(numerator, axis=0)
        out_ptrs = output_ptr + row_idx * output_row_stride + col_offsets
        tl.store(out_ptrs, out.to(output_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    """Row-wise softmax of the 2D tensor x (over the last dimension), like torch.softmax(x, dim=-1)."""
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    # More warps for longer rows: each thread then holds BLOCK_SIZE / (32 * num_warps) values,
    # few enough to stay in registers, while short rows do not waste idle threads.
    num_warps = 4
    if BLOCK_SIZE >= 2048:
        num_warps = 8
    if BLOCK_SIZE >= 4096:
        num_warps = 16
    softmax_kernel[(min(n_rows, 4),)](
        output,
        x,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        n_cols,
        n_rows,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=num_warps,
    )
    return output
