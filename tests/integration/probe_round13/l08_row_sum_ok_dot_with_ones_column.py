"""Probe round 13, 8/row-sum, CORRECT: 16 rows per program; each chunk of columns is multiplied by a [BLOCK_K, 16] block of ones
with tl.dot (input_precision="ieee", fp32 accumulator), and column 0 of the product is the row sum. Right
verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(
    x_ptr, out_ptr, n_rows, n_cols, stride_xm, stride_xn, BLOCK_M: tl.constexpr, BLOCK_K: tl.constexpr
):
    # 16 rows per program; each chunk of columns is multiplied by a column of ones (a matrix-vector
    # product on tl.dot), so the sum is done by the dot unit, accumulated in fp32
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    ks = tl.arange(0, BLOCK_K)
    ones = tl.full((BLOCK_K, 16), 1.0, dtype=tl.float32)
    acc = tl.zeros((BLOCK_M, 16), dtype=tl.float32)
    for start in range(0, n_cols, BLOCK_K):
        cols = start + ks
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask, other=0.0)
        acc = tl.dot(tile.to(tl.float32), ones, acc, input_precision="ieee")
    first = tl.arange(0, 16)[None, :] == 0
    total = tl.sum(tl.where(first, acc, 0.0), axis=1)  # the 16 columns hold the same sum: keep column 0
    tl.store(out_ptr + rows, total.to(out_ptr.dtype.element_ty), mask=rows < n_rows)


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return out
    BLOCK_M, BLOCK_K = 16, 64
    row_sum_kernel[(triton.cdiv(n_rows, BLOCK_M),)](
        x, out, n_rows, n_cols, x.stride(0), x.stride(1), BLOCK_M=BLOCK_M, BLOCK_K=BLOCK_K
    )
    return out
