"""Probe round 17b, 8/softmax-rows, CORRECT: each program loads its ROWS rows as one flat 1D block of
ROWS * BLOCK_SIZE lanes (lane i is row i // BLOCK_SIZE, column i % BLOCK_SIZE of the program's tile), then
tl.reshape turns the block into the [ROWS, BLOCK_SIZE] tile for the two reductions along axis 1, and back into a
flat block for the store. The pointers and masks are built once, on the flat lanes. Right verdict: PASS."""

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
    lanes = tl.arange(0, ROWS * BLOCK_SIZE)
    rows = tl.program_id(axis=0) * ROWS + lanes // BLOCK_SIZE
    cols = lanes % BLOCK_SIZE
    mask = (rows < n_rows) & (cols < n_cols)
    flat = tl.load(
        input_ptr + rows * input_row_stride + cols * input_col_stride, mask=mask, other=-float("inf")
    )
    x = tl.reshape(flat.to(tl.float32), (ROWS, BLOCK_SIZE))
    row_max = tl.max(x, axis=1)
    numerator = tl.exp(x - row_max[:, None])
    denominator = tl.sum(numerator, axis=1)
    out = tl.reshape(numerator / denominator[:, None], (ROWS * BLOCK_SIZE,))
    tl.store(output_ptr + rows * output_row_stride + cols, out.to(output_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor, ROWS=None, num_warps=None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    block = triton.next_power_of_2(n_cols)
    rows = ROWS or max(1, min(8, 1024 // block))
    warps = num_warps or (8 if block * rows >= 4096 else 4)
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
        num_warps=warps,
    )
    return output
