"""Learner: starts the recurrence from y = 0 instead of y = x."""

import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements
    degree,  # number of fused multiply-adds per element (a runtime value: the loop is not unrolled)
    BLOCK_SIZE: tl.constexpr,  # elements handled by one program
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)  # 1 read
    y = tl.zeros_like(x)
    for _ in range(degree):
        y = y * 0.5 + x  # one FMA: 2 FLOPs, no memory traffic
    tl.store(output_ptr + offsets, y.to(output_ptr.dtype.element_ty), mask=mask)  # 1 write


def fma_chain(x: torch.Tensor, degree: int, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    """y = x * (2 - 0.5**degree), computed with `degree` FMAs per element."""
    if not x.is_contiguous():
        raise ValueError("fma_chain expects a contiguous tensor")
    if degree < 0:
        raise ValueError(f"degree must be >= 0, got {degree}")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    fma_chain_kernel[grid](x, output, n_elements, degree, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
