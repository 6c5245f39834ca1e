"""Learner (wrong): the TODO asked to pass the caller's num_warps as a launch option; the learner, tidying the launch
line, typed num_stages=num_warps. BLOCK_SIZE reaches the kernel; num_warps never does (the launch runs with the
default 4 warps and num_warps' value goes to the pipeliner, which a copy has no loop for).
Right verdict: FAIL (knob-ignored: num_warps asked 1 / 8, launched 4) in the num_warps = 1 and 8 variants."""

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
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_stages=num_warps)
    return output
