"""Probe round 16b, 8/row-sum, CORRECT: the chunk loop is unrolled by two: each step loads two chunks (even and
odd) into two float32 accumulators, which are added only after the loop (more loads in flight per step). The
second chunk of the last step is masked like any other (it may lie wholly past n_cols). The wrapper takes an
optional `out=` tensor (torch's convention) and writes into it; without one it allocates. int64 row offset.
Right verdict: PASS."""

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
    cols = tl.arange(0, BLOCK_SIZE)
    acc_even = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    acc_odd = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, n_cols, 2 * BLOCK_SIZE):
        c0 = start + cols
        c1 = start + BLOCK_SIZE + cols
        acc_even += tl.load(row_ptr + c0 * stride_xn, mask=c0 < n_cols, other=0.0).to(tl.float32)
        acc_odd += tl.load(row_ptr + c1 * stride_xn, mask=c1 < n_cols, other=0.0).to(tl.float32)
    total = tl.sum(acc_even + acc_odd, axis=0)
    tl.store(output_ptr + row, total.to(output_ptr.dtype.element_ty))


def row_sum(x: torch.Tensor, out: torch.Tensor | None = None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    if out is None:
        out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    elif out.shape != (n_rows,) or out.dtype != x.dtype or not out.is_contiguous():
        raise ValueError("out must be a contiguous 1D tensor of x's dtype with one value per row")
    if n_rows == 0:
        return out
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 2048)
    row_sum_kernel[(n_rows,)](x, out, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return out
