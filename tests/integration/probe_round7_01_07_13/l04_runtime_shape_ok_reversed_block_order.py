"""Probe round 7, 4/runtime-shape, CORRECT: program pid squares block num_programs - 1 - pid (the blocks are
handed out back to front, tl.num_programs read inside the kernel), and inside its block the lanes run backwards
(start + BLOCK_SIZE - 1 - arange). Every element is still covered once, masked at the tail.
Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    block = tl.num_programs(axis=0) - 1 - tl.program_id(axis=0)
    offsets = block * BLOCK_SIZE + (BLOCK_SIZE - 1 - tl.arange(0, BLOCK_SIZE))
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x * x, mask=mask)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    square_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
