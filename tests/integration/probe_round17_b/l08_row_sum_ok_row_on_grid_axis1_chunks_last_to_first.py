"""Probe round 17b, 8/row-sum, CORRECT: the grid is (1, n_rows) and each program takes its row from
tl.program_id(axis=1) (a swapped grid, indexed consistently). The row is walked chunk by chunk from the last
(masked, possibly partial) chunk to the first: the loop counts chunk indices i = 0 .. n_chunks - 1 and reads
chunk n_chunks - 1 - i, so the ragged tail is summed first (a different summation order). fp32 accumulator,
cast once at the store. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(
    x_ptr,
    output_ptr,
    n_cols,
    stride_xm,
    stride_xn,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(axis=1)
    row_ptr = x_ptr + row * stride_xm
    offs = tl.arange(0, BLOCK_SIZE)
    n_chunks = tl.cdiv(n_cols, BLOCK_SIZE)
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for i in range(0, n_chunks):
        start = (n_chunks - 1 - i) * BLOCK_SIZE  # the last chunk first
        cols = start + offs
        chunk = tl.load(row_ptr + cols * stride_xn, mask=cols < n_cols, other=0.0)
        acc += chunk.to(tl.float32)
    total = tl.sum(acc, axis=0)
    tl.store(output_ptr + row, total.to(output_ptr.dtype.element_ty))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return output
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 2048)
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    grid = (1, n_rows)  # rows on the second grid axis
    row_sum_kernel[grid](
        x, output, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps
    )
    return output
