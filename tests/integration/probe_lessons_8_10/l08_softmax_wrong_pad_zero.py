# ruff: noqa
# WRONG: the max is subtracted, but padding lanes are loaded as 0.0 instead of -inf: a row whose values are
# all negative gets max 0, and every padding lane adds exp(0 - max) to the sum (N not a power of two).
# Teacher expects: FAIL, naming the padding value (other=-inf) of the tl.load line.
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
    row = tl.load(row_ptrs, mask=mask, other=0.0).to(tl.float32)
    numerator = tl.exp(row - tl.max(row, axis=0))
    denominator = tl.sum(numerator, axis=0)
    out = numerator / denominator
    tl.store(
        output_ptr + row_idx * output_row_stride + col_offsets, out.to(output_ptr.dtype.element_ty), mask=mask
    )


def softmax(x):
    if x.dim() != 2:
        raise ValueError("2D only")
    if not x.is_floating_point():
        raise TypeError("float only")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    softmax_kernel[(n_rows,)](
        output,
        x,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        n_cols,
        BLOCK_SIZE=triton.next_power_of_2(n_cols),
    )
    return output
