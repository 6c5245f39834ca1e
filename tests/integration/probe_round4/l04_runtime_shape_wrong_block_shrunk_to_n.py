"""Learner: shrinks the block to the input for short inputs (BLOCK_SIZE = min(BLOCK_SIZE, n)): not a power of two for n = 97."""

import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements: known only at run time, so it may bound a mask but not a shape
    BLOCK_SIZE: tl.constexpr,  # block shape: known at compile time, a power of two
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * x, mask=mask)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    BLOCK_SIZE = min(BLOCK_SIZE, n_elements)  # no point in a block longer than the input
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    square_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
