"""Learner: the kernel has no mask: the wrapper allocates a float32 buffer padded to whole blocks
(`torch.empty((cdiv(n, B), B), dtype=float32)`), every program stores a full block (the padded inputs are read
through a mask, the store is unmasked into the padding), and the wrapper returns
`out32.reshape(-1)[:n].to(x.dtype)`: a cast of a partial view of the kernel's buffer.

Right verdict: PASS (every returned value is a dtype cast of what the kernel stored).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + offsets, x + y)  # the buffer is padded to whole blocks: no mask needed


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.shape != y.shape or x.device != y.device or x.dtype != y.dtype:
        raise ValueError("x and y must match in shape, device and dtype")
    n = x.numel()
    BLOCK = 256
    blocks = triton.cdiv(n, BLOCK)
    out32 = torch.empty((max(blocks, 1), BLOCK), dtype=torch.float32, device=x.device)
    if n:
        add_kernel[(blocks,)](x, y, out32, n, BLOCK_SIZE=BLOCK)
    return out32.reshape(-1)[:n].to(x.dtype)
