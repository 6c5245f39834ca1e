"""Lesson 4 — a shape known only at run time.

This kernel tries to square the whole vector in one program, with one block of
n_elements lanes. Press F6: it does not even compile. Read the error, then restructure
the kernel around a compile-time BLOCK_SIZE.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements (runtime value)
    # TODO 1: add a compile-time block size parameter.
):
    # TODO 2: a block's shape must be known when the kernel is compiled; n_elements is not.
    #         Index with pid and a compile-time block size instead, and mask the tail.
    offsets = tl.arange(0, n_elements)
    x = tl.load(x_ptr + offsets)
    tl.store(output_ptr + offsets, x * x)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    # TODO 3: launch one program per BLOCK_SIZE elements and pass BLOCK_SIZE to the kernel.
    square_kernel[(1,)](x, output, n_elements)
    return output
