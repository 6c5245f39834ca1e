"""Lesson 3: size the launch grid.

Program p writes into slot p how many elements of x it owns. The output has one slot per block of x;
a slot that is never written belongs to a block that no program was launched for.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def block_length_kernel(
    out_ptr,  # pointer to the int32 output, one slot per program
    n_elements,  # number of elements being split into blocks
    BLOCK_SIZE: tl.constexpr,  # elements per block
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    length = tl.minimum(n_elements - block_start, BLOCK_SIZE)
    # A program launched past the end owns nothing and writes nothing.
    tl.store(out_ptr + pid, length, mask=block_start < n_elements)


def elements_per_program(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    # One slot per block of x, counting the last, partial block: x[::BLOCK_SIZE] holds each block's first
    # element, so it has exactly one entry per block. Uninitialised until a program fills it.
    out = torch.empty_like(x[::BLOCK_SIZE], dtype=torch.int32)
    grid = (math.ceil(n_elements / BLOCK_SIZE),)
    block_length_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
