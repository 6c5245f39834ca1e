"""Probe round 7, 6/copy, WRONG: a learner who has seen @triton.autotune in the tutorials lets it pick BLOCK_SIZE
and num_warps, and the wrapper no longer forwards the caller's BLOCK_SIZE / num_warps (it cannot: autotune owns
them). Every copy is right, but the benchmark's sweep over BLOCK_SIZE x num_warps then times the autotuner's pick
forty times: the exercise's point is lost. Right verdict: FAIL with knob-ignored (the sweep's knobs never reach
the launch), naming BLOCK_SIZE and/or num_warps.
"""

import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 256}, num_warps=2),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
)
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
    copy_kernel[grid](x, output, n_elements)  # the autotuner picks BLOCK_SIZE and num_warps
    return output
