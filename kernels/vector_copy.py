"""Lesson 2 reference: the sanity kernel. Copy x into a new tensor, block by block.

(The file is not named copy.py on purpose: that would shadow Python's own `copy` module.)

The logic is as small as a Triton kernel gets, so when this fails the environment is to blame
(install, driver, cache, numpy), not the kernel.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(
    x_ptr,  # pointer to the first element of the input
    output_ptr,  # pointer to the first element of the output
    n_elements,  # number of elements to copy
    BLOCK_SIZE: tl.constexpr,  # how many elements one program copies
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements  # the last block may run past the end
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x, mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor (strided layouts come in lesson 7)")
    output = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
