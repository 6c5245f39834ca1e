"""Probe round 15b, 8/row-sum, WRONG: each row is split over SPLIT programs (a 2D grid), each sums its share of the
chunks and tl.atomic_add's it into a float32 buffer, which is then cast to x's dtype. The slip: the buffer is made
with torch.empty, not torch.zeros, so the atomics add onto whatever the allocator left there.
Right verdict: FAIL, naming the uninitialised accumulator buffer (the torch.empty line) or the atomic_add onto it."""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(
    x_ptr,
    output_ptr,  # float32 [n_rows]: every split adds its share here
    n_cols,
    stride_xm,
    stride_xn,
    BLOCK_SIZE: tl.constexpr,
    SPLIT: tl.constexpr,
):
    row = tl.program_id(axis=0)
    part = tl.program_id(axis=1)
    row_ptr = x_ptr + row * stride_xm
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    # chunks part, part + SPLIT, part + 2 * SPLIT, ... of this row
    for start in range(part * BLOCK_SIZE, n_cols, SPLIT * BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
        chunk = tl.load(row_ptr + cols * stride_xn, mask=cols < n_cols, other=0.0)
        acc += chunk.to(tl.float32)
    tl.atomic_add(output_ptr + row, tl.sum(acc, axis=0))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    if n_rows == 0:
        return torch.empty(n_rows, device=x.device, dtype=x.dtype)
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 1024)
    SPLIT = 2
    sums = torch.empty(n_rows, device=x.device, dtype=torch.float32)
    row_sum_kernel[(n_rows, SPLIT)](
        x, sums, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE, SPLIT=SPLIT, num_warps=4
    )
    return sums.to(x.dtype)
