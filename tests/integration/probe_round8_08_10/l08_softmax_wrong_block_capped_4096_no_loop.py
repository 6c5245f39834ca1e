"""Learner (wrong): the wrapper was copied from row_sum.py, BLOCK_SIZE = min(next_power_of_2(n_cols), 4096), but
this kernel has no loop over column chunks: it treats one block as the whole row. For rows of up to 4096 columns
it is the five-step softmax, exactly; for a row of 4097 columns or more, the columns from 4096 on are never
loaded (they are left out of the max and the sum) and never stored. A vocabulary-sized row (32k columns, as in
the GPU cases) comes out with its first 4096 values normalised over the wrong sum and the rest unwritten.
Right verdict: FAIL, naming the columns past BLOCK_SIZE (the block is smaller than the row and nothing walks the
rest)."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    input_col_stride,
    output_row_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(axis=0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row_ptrs = input_ptr + row_idx * input_row_stride + col_offsets * input_col_stride
    row = tl.load(row_ptrs, mask=mask, other=-float("inf")).to(tl.float32)
    row_max = tl.max(row, axis=0)
    numerator = tl.exp(row - row_max)
    denominator = tl.sum(numerator, axis=0)
    out = numerator / denominator
    out_ptrs = output_ptr + row_idx * output_row_stride + col_offsets
    tl.store(out_ptrs, out.to(output_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 4096)  # as in row_sum.py
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    softmax_kernel[(n_rows,)](
        output,
        x,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        n_cols,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=num_warps,
    )
    return output
