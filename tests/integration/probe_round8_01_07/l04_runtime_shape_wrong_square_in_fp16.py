"""Probe round 8, 4/runtime-shape, WRONG: a dtype slip. The kernel is restructured correctly (BLOCK_SIZE constexpr,
pid offsets, a mask, cdiv grid), but the learner "saves bandwidth" by converting the loaded block to float16 before
squaring: x = tl.load(...).to(tl.float16). For float16 inputs that changes nothing; for float32 inputs every square
is rounded to 11 bits of mantissa and stored back into float32 (relative error up to ~5e-4, far beyond the float32
tolerance). Right verdict: FAIL on the float32 cases only, and the diagnosis should say the result was rounded to 16
bits (a .to(tl.float16) in the kernel), not blame the mask or the grid.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float16)
    tl.store(output_ptr + offsets, x * x, mask=mask)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    square_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
