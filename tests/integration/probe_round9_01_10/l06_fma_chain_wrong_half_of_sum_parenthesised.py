"""Learner (wrong): the FMA y <- 0.5 * y + x written as y = 0.5 * (y + x): the parentheses halve x too. The chain
then converges to x instead of 2x: after d steps y = x (for every d >= 0), where torch has x * (2 - 0.5 ** d).
degree 0 is right (no step); degree 1, 3, 16 are off by a steady factor 1 / (2 - 0.5 ** d).
Right verdict: FAIL for degree >= 1, a mismatch whose cause names a steady factor (scaled) or the loop."""

import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(x_ptr, output_ptr, n_elements, degree, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = x
    for _ in range(degree):
        y = 0.5 * (y + x)
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
