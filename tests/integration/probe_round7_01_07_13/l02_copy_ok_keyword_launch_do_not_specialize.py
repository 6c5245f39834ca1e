"""Probe round 7, 2/copy, CORRECT: tutorial-style launch options. The kernel is jitted with
do_not_specialize=["n_elements"] (one compiled kernel for every length), every launch argument is passed by
keyword (in a different order from the signature), with num_warps= and num_stages= launch options, and the grid
is a lambda over meta. Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit(do_not_specialize=["n_elements"])
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x, mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor (strided layouts come in lesson 7)")
    output = torch.empty_like(x)
    n_elements = x.numel()

    def grid(meta):
        return (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)

    copy_kernel[grid](
        BLOCK_SIZE=BLOCK_SIZE,
        n_elements=n_elements,
        output_ptr=output,
        x_ptr=x,
        num_warps=4,
        num_stages=1,
    )
    return output
