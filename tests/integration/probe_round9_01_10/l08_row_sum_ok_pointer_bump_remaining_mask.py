"""Learner (correct, different): the chunk loop bumps the row pointer itself (ptrs += BLOCK_SIZE * stride_xn) and
masks each chunk against what is left of the row (lanes < n_cols - start), with tl.range; the partial sums stay a
float32 block reduced once after the loop, and the store casts to the output's dtype explicitly.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, output_ptr, n_cols, stride_xm, stride_xn, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)
    lanes = tl.arange(0, BLOCK_SIZE)
    ptrs = x_ptr + row.to(tl.int64) * stride_xm + lanes * stride_xn
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in tl.range(0, n_cols, BLOCK_SIZE):
        chunk = tl.load(ptrs, mask=lanes < n_cols - start, other=0.0)
        acc += chunk.to(tl.float32)
        ptrs += BLOCK_SIZE * stride_xn
    total = tl.sum(acc, axis=0)
    tl.store(output_ptr + row, total.to(output_ptr.dtype.element_ty))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return output
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 1024)
    row_sum_kernel[(n_rows,)](x, output, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE)
    return output
