"""Lesson 3 reference: size a 1D grid with triton.cdiv.

Program p writes into slot p how many elements of x it owns: BLOCK_SIZE for full blocks, fewer for the
last one. With too few programs the last slots are never written, and the lab reports them as such.
"""

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
    num_programs = triton.cdiv(n_elements, BLOCK_SIZE)  # (n + BLOCK_SIZE - 1) // BLOCK_SIZE
    out = torch.empty((num_programs,), dtype=torch.int32, device=x.device)
    grid = (num_programs,)
    block_length_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
