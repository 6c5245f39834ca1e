"""Learner: allocations happen under `with torch.device(x.device):`, torch's own way to make the inputs' device the
default for a block of code, so `torch.empty(n, dtype=x.dtype)` inside it lands on the inputs' device (the GPU on a
GPU box).

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(
        out_ptr + offsets,
        tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
        mask=mask,
    )


def add(x, y):
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    n = x.numel()
    with torch.device(x.device):
        out = torch.empty(n, dtype=x.dtype)
    if n == 0:
        return out
    add_kernel[(triton.cdiv(n, 512),)](x, y, out, n, BLOCK_SIZE=512)
    return out
