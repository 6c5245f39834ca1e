"""Probe round 13, 5/add, WRONG: the mask is the scalar `block_start < n_elements` (the learner meant the
offsets), so the last program loads and stores all BLOCK_SIZE lanes past the end. Right verdict: FAIL
(out-of-bounds, at the load on line 15, naming the mask of line 14)."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    block_start = tl.program_id(0) * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = block_start < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError("x and y are on different devices")
    out = torch.empty_like(x)
    n = out.numel()
    if n:
        add_kernel[(triton.cdiv(n, 256),)](x, y, out, n, BLOCK_SIZE=256)
    return out
