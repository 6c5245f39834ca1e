"""Lesson 2: the sanity kernel. Copy x into a new tensor, one block per program.

The indexing is done for you (lessons 3 and 4 explain it in depth). Your job: move the data.
If the reference solution passes (`tritonlab verify 2 --solution`) and yours does not, the bug is in
your kernel; if the reference fails too, the environment is broken (`tritonlab doctor`).
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
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)  # the indices this program owns
    mask = offsets < n_elements  # the last block may run past the end
    pass  # TODO later


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor (strided layouts come in lesson 7)")
    output = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return x.clone()  # the kernel is launched; clone gives the copy
