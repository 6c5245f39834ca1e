"""Learner (correct but different): Kahan-compensated summation per lane (a running error term c), the chunk loop
written with tl.range(..., num_stages=3), column offsets wrapped in tl.max_contiguous(tl.multiple_of(...)) as the
tutorials do, an int64 row offset, and a final tl.sum of sum + compensation. Right verdict: PASS."""

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
    row = tl.program_id(axis=0).to(tl.int64)
    row_ptr = x_ptr + row * stride_xm
    total = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    comp = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in tl.range(0, n_cols, BLOCK_SIZE, num_stages=3):
        cols = tl.max_contiguous(tl.multiple_of(start + tl.arange(0, BLOCK_SIZE), BLOCK_SIZE), BLOCK_SIZE)
        chunk = tl.load(row_ptr + cols * stride_xn, mask=cols < n_cols, other=0.0).to(tl.float32)
        y = chunk - comp
        t = total + y
        comp = (t - total) - y
        total = t
    result = tl.sum(total - comp, axis=0)
    tl.store(output_ptr + row, result.to(output_ptr.dtype.element_ty))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return output
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 1024)
    num_warps = 8 if BLOCK_SIZE >= 2048 else 4
    row_sum_kernel[(n_rows,)](
        x, output, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps
    )
    return output
