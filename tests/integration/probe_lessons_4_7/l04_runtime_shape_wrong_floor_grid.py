# ruff: noqa
# WRONG: grid computed with floor division (n // BLOCK_SIZE): the tail is never processed, and for n < 1024
# the grid is empty (0 programs).  Teacher: FAIL, naming the grid size on line 21 (too few programs /
# elements never written).
import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * x, mask=mask)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = (n_elements // BLOCK_SIZE,)
    square_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
