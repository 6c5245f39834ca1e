"""Learner (wrong): padding lanes load as -100.0, because "the inputs are integers in [-100, 100)" (what the
lesson's diff showed on the first rows). A finite sentinel is only safe below every real value: on a row whose
values all lie below -100 (the lesson's low row, in [-121, -119)) the padding wins the max, every real exp(x - max)
shrinks to ~e^-20 and each padding lane adds exp(0) = 1 to the sum, so the row comes out ~2e-9 instead of ~1/N.
Only ragged rows (N not a power of two) have padding. No NaN this time: a plain mismatch on row 0.
Right verdict: FAIL, naming the padding value (padding must load as -inf, which never wins a max)."""

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
    row = tl.load(row_ptrs, mask=mask, other=-100.0).to(tl.float32)  # "smaller than any input"
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
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 4 if BLOCK_SIZE < 2048 else 8
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
