"""Learner (wrong): the row starts at x_ptr + row * n_cols, not row * stride_xm (the very bug lesson 10 plants in
its RMS norm). It is right only for a contiguous x; the wrapper takes any 2D x and passes both strides, and
x[:, :N] or x.t() (a slice of wider rows, a transposed view) sums the wrong elements.
Right verdict: FAIL on a strided x, naming the row start (stride_xm)."""

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
    row_ptr = x_ptr + row * n_cols
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        cols = start + tl.arange(0, BLOCK_SIZE)
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
