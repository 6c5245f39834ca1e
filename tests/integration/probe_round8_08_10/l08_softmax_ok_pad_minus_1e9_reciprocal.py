"""Learner (correct but different): padding lanes load as -1e9 instead of -inf (a habit from attention masks),
and the division is a multiply by the reciprocal of the row sum, computed once per row. -1e9 never wins the max
(real rows, the lesson's low row included, sit far above it; in float16 it even rounds to -inf) and
exp(-1e9 - max) is exactly 0 in float32, so padding adds nothing to the sum; x * (1 / s) is within an ulp or
two of x / s. Right verdict: PASS."""

import torch
import triton
import triton.language as tl

NEG_BIG = tl.constexpr(-1e9)  # "minus infinity" for padding, as in additive attention masks


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
    row = tl.load(row_ptrs, mask=mask, other=NEG_BIG).to(tl.float32)
    row_max = tl.max(row, axis=0)
    numerator = tl.exp(row - row_max)
    inv_denominator = 1.0 / tl.sum(numerator, axis=0)
    out = numerator * inv_denominator
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
    num_warps = 4 if BLOCK_SIZE < 2048 else (8 if BLOCK_SIZE < 4096 else 16)
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
