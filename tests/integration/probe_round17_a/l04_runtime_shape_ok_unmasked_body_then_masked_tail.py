"""Probe round 17a, 4/runtime-shape, CORRECT: two kernels, two launches. The full blocks are squared by a kernel
with no mask at all (grid n // BLOCK_SIZE); the remaining n % BLOCK_SIZE elements by a masked kernel launched
once on the slices x[n_full:] and output[n_full:]. Each launch is skipped when it has nothing to do."""

import torch
import triton
import triton.language as tl


@triton.jit
def square_full_kernel(x_ptr, output_ptr, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offsets)
    tl.store(output_ptr + offsets, x * x)


@triton.jit
def square_tail_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * x, mask=mask)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous")
    output = torch.empty_like(x)
    n_elements = output.numel()
    n_blocks = n_elements // BLOCK_SIZE
    n_full = n_blocks * BLOCK_SIZE
    if n_blocks > 0:
        square_full_kernel[(n_blocks,)](x, output, BLOCK_SIZE=BLOCK_SIZE)
    if n_full < n_elements:
        square_tail_kernel[(1,)](x[n_full:], output[n_full:], n_elements - n_full, BLOCK_SIZE=BLOCK_SIZE)
    return output
