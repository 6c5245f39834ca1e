"""Probe round 13, 4/runtime-shape, CORRECT: each program covers its BLOCK_SIZE elements as a
[BLOCK_SIZE // 16, 16] tile of indices (rows of 16 lanes) and masks it in 2D; the wrapper works on a flat
view and gives the output x's shape back. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    tl.static_assert(BLOCK_SIZE % 16 == 0)
    r = tl.arange(0, BLOCK_SIZE // 16)[:, None]
    c = tl.arange(0, 16)[None, :]
    idx = tl.program_id(0) * BLOCK_SIZE + r * 16 + c
    inside = idx < n_elements
    v = tl.load(x_ptr + idx, mask=inside, other=0.0)
    tl.store(out_ptr + idx, v * v, mask=inside)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    flat = x.reshape(-1).contiguous()
    out = torch.empty_like(flat)
    n = flat.numel()
    block = max(16, BLOCK_SIZE)
    if n:
        square_kernel[(triton.cdiv(n, block),)](flat, out, n, BLOCK_SIZE=block)
    return out.view(x.shape)
