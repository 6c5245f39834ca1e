"""Probe round 15a, 6/fma-chain, CORRECT: the chain runs in float64 (more precise than the reference's float32,
within tolerance) inside a `tl.range` loop, and each step is one tl.fma; the result is rounded once, to the
output's dtype, at the store. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(x_ptr, output_ptr, n_elements, degree, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float64)
    y = x
    half = tl.full((BLOCK_SIZE,), 0.5, tl.float64)
    for _ in tl.range(0, degree):
        y = tl.fma(y, half, x)
    tl.store(output_ptr + offsets, y.to(output_ptr.dtype.element_ty), mask=mask)


def fma_chain(x: torch.Tensor, degree: int, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("fma_chain expects a contiguous tensor")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    fma_chain_kernel[grid](x, output, n_elements, degree, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
