"""Learner: as the padded-buffer version, but the wrapper casts the whole padded float32 buffer first and
slices after: `out32.to(x.dtype).reshape(-1)[:n]`. The returned tensor is a view of the cast's result (its
first n elements), all of them a cast of what the kernel stored.

Right verdict: PASS (the same values as cast-then-slice; slicing a cast is a view, not torch arithmetic).
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
    tl.store(out_ptr + offsets, x + y)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.shape != y.shape or x.device != y.device or x.dtype != y.dtype:
        raise ValueError("x and y must match in shape, device and dtype")
    n = x.numel()
    BLOCK = 256
    blocks = triton.cdiv(n, BLOCK)
    out32 = torch.empty((max(blocks, 1), BLOCK), dtype=torch.float32, device=x.device)
    if n:
        add_kernel[(blocks,)](x, y, out32, n, BLOCK_SIZE=BLOCK)
    return out32.to(x.dtype).reshape(-1)[:n]
