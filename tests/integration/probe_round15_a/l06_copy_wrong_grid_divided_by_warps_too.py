"""Probe round 15a, 6/copy, WRONG: the learner thinks each of the num_warps warps copies its own BLOCK_SIZE
elements, so the grid is cdiv(n, BLOCK_SIZE * num_warps); the kernel (right) copies BLOCK_SIZE elements per
program. With num_warps = 1 (the {128, 1} variant) it is right; with 4 or 8 warps every element from
(number of programs) * BLOCK_SIZE on is never written: n = 1, 97, 1000 fit in one program at BLOCK_SIZE = 1024
and pass. Right verdict: FAIL (the tail is never written: too few programs, the grid on line 30)."""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x, mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    # every warp of a program copies BLOCK_SIZE elements
    elements_per_program = BLOCK_SIZE * num_warps
    grid = (triton.cdiv(n_elements, elements_per_program),)
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
