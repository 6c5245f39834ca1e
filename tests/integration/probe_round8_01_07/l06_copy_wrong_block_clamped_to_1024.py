"""Probe round 8, 6/copy, WRONG: a CUDA habit. The learner believes a block cannot be larger than 1024 (CUDA's
threads-per-block limit) and clamps the sweep's knob: BLOCK_SIZE = min(BLOCK_SIZE, 1024), with a grid computed from
the clamped value. Every copy is still right, but copy(x, BLOCK_SIZE=2048, num_warps=8) runs 1024-element blocks,
so the sweep's 2048..16384 points all time the same kernel. In Triton BLOCK_SIZE counts elements per program, not
threads (those are num_warps * 32). Right verdict: FAIL on the BLOCK_SIZE = 2048 variant only, kind knob-ignored
naming BLOCK_SIZE.
"""

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
    BLOCK_SIZE = min(BLOCK_SIZE, 1024)  # "a block has at most 1024 threads"
    grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
