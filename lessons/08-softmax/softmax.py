"""Lesson 8 — softmax. This version is the textbook formula, exp(x) / sum(exp(x)), and it is broken.

Press F6 (Verify) first and read the diff: some rows come out NaN, others are slightly wrong.
Then turn it into the five-step stable softmax:
    1. load the row (padding lanes: which value?)   4. sum
    2. row maximum                                  5. divide and store
    3. subtract the maximum, then exp
"""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(
    output_ptr,  # pointer to out[0, 0]
    input_ptr,  # pointer to x[0, 0]
    input_row_stride,  # elements between x[i, 0] and x[i + 1, 0]
    input_col_stride,  # elements between x[i, j] and x[i, j + 1]
    output_row_stride,  # elements between out[i, 0] and out[i + 1, 0]
    n_cols,  # N: length of each row
    BLOCK_SIZE: tl.constexpr,  # a power of two >= n_cols: the whole row in one block
):
    row_idx = tl.program_id(axis=0)
    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols
    row_ptrs = input_ptr + row_idx * input_row_stride + col_offsets * input_col_stride
    # TODO (step 1): padding lanes are BLOCK_SIZE - n_cols extra values. Which value adds nothing to a
    # sum of exponentials and never wins a max?
    row = tl.load(row_ptrs, mask=mask, other=0.0).to(tl.float32)
    # TODO (steps 2-3): exp(x) overflows float32 once x > ~88.7. Subtract the row maximum first.
    numerator = tl.exp(row)
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
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 4
    if BLOCK_SIZE >= 2048:
        num_warps = 8
    if BLOCK_SIZE >= 4096:
        num_warps = 16
    softmax_kernel[(n_rows,)](
        output, x, x.stride(0), x.stride(1), output.stride(0), n_cols,
        BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps,
    )
    return output
