"""Learner (wrong): the chunk loop loads start + arange but masks with tl.arange(0, BLOCK_SIZE) < n_cols, forgetting
the chunk's start. A row that fits one block is right; in a row longer than BLOCK_SIZE (N = 5000, BLOCK_SIZE 4096)
the second chunk's lanes 4096..8191 all pass the mask, so rows 0..M-2 add the first 3192 values of the next row
and the last row reads past the end of x. Right verdict: FAIL, stopping at the chunk's tl.load (out of bounds) with
a message that the mask does not bound the chunk offset (start)."""

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
    lanes = tl.arange(0, BLOCK_SIZE)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + lanes
        chunk = tl.load(row_ptr + cols * stride_xn, mask=lanes < n_cols, other=0.0)
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
