"""Learner (wrong): "unmasked loads are faster", so the loop only walks whole chunks,
range(0, n_cols - BLOCK_SIZE + 1, BLOCK_SIZE), with no mask, and the tail after the last whole chunk is
forgotten. With the starter's BLOCK_SIZE = min(next_power_of_2(n_cols), 4096) a row whose length is not a power of
two has no whole chunk at all (N = 7 in blocks of 8, N = 100 in blocks of 128): its sum comes out 0. A row of 5000
keeps its first 4096 columns and loses the last 904. Rows of 1 column (a power of two) are right.
Right verdict: FAIL, saying the last, partial chunk of each row is never added (rows shorter than one block sum
to 0)."""

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
    for start in range(0, n_cols - BLOCK_SIZE + 1, BLOCK_SIZE):  # whole chunks only: no mask needed
        cols = start + tl.arange(0, BLOCK_SIZE)
        chunk = tl.load(row_ptr + cols * stride_xn)
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
