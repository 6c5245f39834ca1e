"""Lesson 6, a learner's version: the kernel always writes a float32 scratch; the wrapper casts it back."""

import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(x_ptr, out32_ptr, n_elements, degree, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = x
    for _ in range(degree):
        y = y * 0.5 + x
    tl.store(out32_ptr + offsets, y, mask=mask)  # float32 buffer: no cast here


def fma_chain(x: torch.Tensor, degree: int, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("fma_chain expects a contiguous tensor")
    if degree < 0:
        raise ValueError(f"degree must be >= 0, got {degree}")
    scratch = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    n_elements = x.numel()
    if n_elements:
        grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
        fma_chain_kernel[grid](x, scratch, n_elements, degree, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return scratch.to(x.dtype)
