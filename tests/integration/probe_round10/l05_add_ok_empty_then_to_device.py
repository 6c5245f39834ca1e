"""Learner: the output is allocated as `torch.empty(x.shape, dtype=x.dtype).to(x.device)` — made on torch's default
device, then moved to the inputs' device (a copy to the GPU on a GPU box; on the CPU interpreter `.to` returns the
same tensor). The kernel is handed a buffer on the inputs' device either way.

Right verdict: PASS (wasteful on a GPU, not wrong).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x, y):
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    out = torch.empty(x.shape, dtype=x.dtype).to(x.device)
    n = out.numel()
    if n == 0:
        return out
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
    return out
