"""Lesson 4 — fix the out-of-bounds access.

This ReLU kernel is correct when len(x) is a multiple of BLOCK_SIZE, and wrong for every
other length: its last program reads and writes past the end of the tensors.
Press F6: the lab reports which program, which lanes and which offsets went out of bounds,
and on which line. Then fix the kernel.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def relu_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements in x
    BLOCK_SIZE: tl.constexpr,  # elements per program
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    # TODO: nothing stops the lanes with offsets >= n_elements. Guard the load and the store.
    x = tl.load(x_ptr + offsets)
    tl.store(output_ptr + offsets, tl.maximum(x, 0.0))


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    relu_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
