"""Probe round 15a, 4/runtime-shape, CORRECT: in the style of the Triton tutorials' kernels, the offsets carry
tl.multiple_of / tl.max_contiguous hints, the program's start is computed in int64, and the square is
tl.fma(x, x, 0.0) (one rounding, as x * x). Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid.to(tl.int64) * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    offsets = tl.max_contiguous(tl.multiple_of(offsets, BLOCK_SIZE), BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, tl.fma(x, x, 0.0), mask=mask)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    square_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
