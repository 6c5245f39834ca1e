"""Learner: @triton.heuristics decides EVEN (n a multiple of BLOCK_SIZE) and the kernel skips the mask then."""

import torch
import triton
import triton.language as tl


@triton.heuristics({"EVEN": lambda args: args["n_elements"] % args["BLOCK_SIZE"] == 0})
@triton.jit
def fma_chain_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements
    degree,  # number of fused multiply-adds per element (a runtime value: the loop is not unrolled)
    BLOCK_SIZE: tl.constexpr,  # elements handled by one program
    EVEN: tl.constexpr,  # set by the heuristic: no ragged last block
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    if EVEN:
        x = tl.load(x_ptr + offsets).to(tl.float32)
    else:
        x = tl.load(x_ptr + offsets, mask=offsets < n_elements).to(tl.float32)
    y = x
    for _ in range(degree):
        y = y * 0.5 + x  # one FMA: 2 FLOPs, no memory traffic
    if EVEN:
        tl.store(output_ptr + offsets, y.to(output_ptr.dtype.element_ty))
    else:
        tl.store(output_ptr + offsets, y.to(output_ptr.dtype.element_ty), mask=offsets < n_elements)


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
