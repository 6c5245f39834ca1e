"""Lesson 8 — row sum, your first reduction. Fill in the TODOs, then press F6 (Verify).

out[i] = x[i, 0] + x[i, 1] + ... + x[i, N-1]. One program owns one row; rows can be longer than one
block, so the program walks its row in chunks and keeps a running float32 accumulator.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(
    x_ptr,  # pointer to x[0, 0]
    output_ptr,  # pointer to out[0]
    n_cols,  # N: elements in each row
    stride_xm,  # elements between x[i, j] and x[i + 1, j]
    stride_xn,  # elements between x[i, j] and x[i, j + 1]
    BLOCK_SIZE: tl.constexpr,  # columns read per loop step
):
    row = tl.program_id(axis=0)
    row_ptr = x_ptr + row * stride_xm
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    # TODO: walk the row: for start in range(0, n_cols, BLOCK_SIZE), load the chunk
    # row_ptr + cols * stride_xn (masked; what must padding lanes hold for a sum?) and add it into acc.
    # TODO: reduce acc across its lanes.
    total = 0.0
    tl.store(output_ptr + row, total)


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
