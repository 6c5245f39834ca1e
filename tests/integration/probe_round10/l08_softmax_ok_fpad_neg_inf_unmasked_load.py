"""Learner: the wrapper pads every row to the block with -inf (`F.pad(x, (0, BLOCK_SIZE - N), value=-inf)`, a copy
of x's values plus padding), so the kernel loads whole padded rows without a mask: -inf never wins the max and
exp(-inf) adds 0. The store is masked to the N real columns of the output.

Right verdict: PASS.
"""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, xp_ptr, xp_row_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    x = tl.load(xp_ptr + row * xp_row_stride + cols).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    out = num / tl.sum(num, axis=0)
    tl.store(out_ptr + row * out_row_stride + cols, out.to(out_ptr.dtype.element_ty), mask=cols < n_cols)


def softmax(x):
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    xp = F.pad(x, (0, BLOCK_SIZE - n_cols), value=float("-inf"))
    softmax_kernel[(n_rows,)](out, xp, xp.stride(0), out.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE)
    return out
