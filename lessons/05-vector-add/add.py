"""Lesson 5 — vector addition, the whole life cycle.

Fill in the TODOs, then press F5 (Run) to see x, y and your output for 10 elements,
and F6 (Verify) to check it against x + y on many sizes. F7 benchmarks it against torch.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(
    x_ptr,  # pointer to the first input vector
    y_ptr,  # pointer to the second input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements in each vector
    BLOCK_SIZE: tl.constexpr,  # elements handled by one program
):
    pid = tl.program_id(axis=0)
    # TODO 1: the BLOCK_SIZE offsets of this program (a block built with tl.arange),
    #         and a mask that switches off the lanes at or past n_elements.
    offsets = pid * BLOCK_SIZE
    # TODO 2: pass the mask to both loads and to the store.
    x = tl.load(x_ptr + offsets)
    y = tl.load(y_ptr + offsets)
    tl.store(output_ptr + offsets, x + y)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # TODO 3: raise an exception when x and y are not on the same device, before anything is launched.
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
