"""Learner (correct but different): a fixed 128-column chunk instead of the whole row in one block, and three passes
over the row with tl.range(..., num_stages=2): the maximum, then the sum of exp(x - max), then the normalised
store. Every chunk is masked against n_cols (ragged last chunk) and padding lanes load -inf. Reads x three times,
which the softmax exercise has no byte budget against. Right verdict: PASS."""

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
    row_idx = tl.program_id(axis=0).to(tl.int64)
    in_row = input_ptr + row_idx * input_row_stride
    out_row = output_ptr + row_idx * output_row_stride
    cols = tl.arange(0, BLOCK_SIZE)

    running_max = tl.full([BLOCK_SIZE], -float("inf"), dtype=tl.float32)
    for start in tl.range(0, n_cols, BLOCK_SIZE, num_stages=2):
        offs = start + cols
        chunk = tl.load(in_row + offs * input_col_stride, mask=offs < n_cols, other=-float("inf"))
        running_max = tl.maximum(running_max, chunk.to(tl.float32))
    row_max = tl.max(running_max, axis=0)

    partial = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in tl.range(0, n_cols, BLOCK_SIZE, num_stages=2):
        offs = start + cols
        chunk = tl.load(in_row + offs * input_col_stride, mask=offs < n_cols, other=-float("inf"))
        partial += tl.exp(chunk.to(tl.float32) - row_max)
    inv_denominator = 1.0 / tl.sum(partial, axis=0)

    for start in tl.range(0, n_cols, BLOCK_SIZE, num_stages=2):
        offs = start + cols
        mask = offs < n_cols
        chunk = tl.load(in_row + offs * input_col_stride, mask=mask, other=-float("inf"))
        out = tl.exp(chunk.to(tl.float32) - row_max) * inv_denominator
        tl.store(out_row + offs, out.to(output_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
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
        BLOCK_SIZE=128,
        num_warps=4,
    )
    return output
