"""Learner: the lanes are counted from 1 (`tl.arange(1, BLOCK_SIZE + 1)`, a range of BLOCK_SIZE values, a power of
two) and the block start is shifted back by one to match: offsets = pid * BLOCK_SIZE - 1 + tl.arange(1, BLOCK_SIZE +
1) are exactly pid * BLOCK_SIZE + 0 ... BLOCK_SIZE - 1.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE - 1 + tl.arange(1, BLOCK_SIZE + 1)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x, y):
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    out = torch.empty_like(x)
    n = out.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, out, n, BLOCK_SIZE=1024)
    return out
