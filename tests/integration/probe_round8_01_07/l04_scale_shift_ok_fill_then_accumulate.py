"""Probe round 8, 4/scale-shift, CORRECT: two launches, the bias-first way some libraries build an epilogue. The
first kernel fills the output with b (tl.full, masked); the second reads that output back, adds x * a and stores it
again, in place (out = out + x * a, read-modify-write on the same offsets of the same program). Every element is
written by the learner's kernels, twice, and the final value is b + x * a = x * a + b. Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def fill_kernel(output_ptr, value, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.full((BLOCK_SIZE,), value, tl.float32), mask=mask)


@triton.jit
def axpy_kernel(x_ptr, output_ptr, a, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    acc = tl.load(output_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    tl.store(output_ptr + offsets, acc + x * a, mask=mask)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    fill_kernel[grid](output, b, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    axpy_kernel[grid](x, output, a, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
