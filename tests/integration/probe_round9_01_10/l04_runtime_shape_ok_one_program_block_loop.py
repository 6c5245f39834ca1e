"""Learner (correct, different): keeps the starter's single program (grid (1,)) and makes it walk the vector in
BLOCK_SIZE chunks with tl.range, the mask taken against n_elements on each step. No program id at all: the one
program does every block in turn (slow on a GPU, but the lesson's point — a compile-time block shape — holds).
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    lanes = tl.arange(0, BLOCK_SIZE)
    for start in tl.range(0, n_elements, BLOCK_SIZE):
        offsets = start + lanes
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask)
        tl.store(output_ptr + offsets, x * x, mask=mask)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    square_kernel[(1,)](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
