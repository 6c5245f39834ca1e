"""Probe round 15b, 8/row-sum, CORRECT: the row is walked in whole chunks with unmasked loads (tl.range up to the
last full chunk), then one masked tail chunk with other=0.0; int64 row offsets; a smaller fixed BLOCK_SIZE (256) so
long rows take many steps. Right verdict: PASS."""

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
    offs = tl.arange(0, BLOCK_SIZE)
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    n_full = (n_cols // BLOCK_SIZE) * BLOCK_SIZE
    # whole chunks: every lane is inside the row, no mask needed
    for start in tl.range(0, n_full, BLOCK_SIZE):
        chunk = tl.load(row_ptr + (start + offs) * stride_xn)
        acc += chunk.to(tl.float32)
    # the ragged tail (possibly empty): masked, padding reads as 0
    tail_cols = n_full + offs
    tail = tl.load(row_ptr + tail_cols * stride_xn, mask=tail_cols < n_cols, other=0.0)
    acc += tail.to(tl.float32)
    total = tl.sum(acc, axis=0)
    tl.store(output_ptr + row, total.to(output_ptr.dtype.element_ty))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return output
    BLOCK_SIZE = 256
    row_sum_kernel[(n_rows,)](x, output, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return output
