"""Probe round 16b, 8/softmax, WRONG: the row is loaded with other=-inf and the max is right, but then the learner
"cleans" the -inf out before the exp (`x = tl.where(mask, x, 0.0)`, fearing -inf - max): every padding lane
adds exp(0 - row_max) to the denominator. Rows with a large max hardly notice (exp(-99) is nothing); rows with
a small max are visibly off, and the lab's low row (max about -120) gets exp(120) = inf in the sum: all zeros.
Right verdict: FAIL on the cases whose N is not a power of two, naming padding lanes that reach the sum (the
tl.where line)."""

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
    row = tl.where(mask, row, 0.0)  # no -inf into the exp
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
    num_warps = 4
    if BLOCK_SIZE >= 2048:
        num_warps = 8
    if BLOCK_SIZE >= 4096:
        num_warps = 16
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
