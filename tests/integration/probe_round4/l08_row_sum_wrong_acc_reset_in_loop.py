"""Learner: creates the accumulator inside the column loop: only the last chunk of each row is summed."""

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
    for start in range(0, n_cols, BLOCK_SIZE):
        acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
        cols = start + tl.arange(0, BLOCK_SIZE)
        # other=0.0: a padding lane must not change a sum, and 0 is the identity of +.
        chunk = tl.load(row_ptr + cols * stride_xn, mask=cols < n_cols, other=0.0)
        acc += chunk.to(tl.float32)
    total = tl.sum(acc, axis=0)  # the reduction across lanes: a tree inside the program
    tl.store(output_ptr + row, total.to(output_ptr.dtype.element_ty))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    """Sum each row of the 2D tensor x: the same as x.sum(dim=-1)."""
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return output
    # Up to 4096 columns per step: one step for most rows, a short loop for long ones.
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 4096)
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    row_sum_kernel[(n_rows,)](
        x, output, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps
    )
    return output
