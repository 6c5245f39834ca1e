"""Probe round 16b, 8/row-sum, WRONG: the loop counts chunks (`for c in range(0, tl.cdiv(n_cols, BLOCK_SIZE))`)
but the column offsets are built as `c + tl.arange(...)` instead of `c * BLOCK_SIZE + tl.arange(...)`: chunk c
starts at column c, not c * BLOCK_SIZE. A row that fits one chunk is right (only c = 0 runs); a longer row (N = 5000,
BLOCK_SIZE 4096: two chunks) adds columns 1..4096 a second time and never reads 4097..4999.
Right verdict: FAIL on the N = 5000 cases only, naming the offset line (the chunk's start)."""

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
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row * stride_xm
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for c in range(0, tl.cdiv(n_cols, BLOCK_SIZE)):
        cols = c + tl.arange(0, BLOCK_SIZE)
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
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 4096)
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    row_sum_kernel[(n_rows,)](
        x, output, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps
    )
    return output
