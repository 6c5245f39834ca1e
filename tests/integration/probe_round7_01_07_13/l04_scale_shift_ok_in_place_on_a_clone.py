"""Probe round 7, 4/scale-shift, CORRECT: an in-place kernel, the way torch's x.mul_(a).add_(b) works. The wrapper
clones x into the output (torch.clone: x's values, NOT the answer), and the kernel updates that buffer in place:
each program loads its own block of the output, computes y * a + b and stores it back to the same addresses. No
element is read by one program and written by another; every output element is stored by the kernel; x is never
written. Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_inplace_kernel(y_ptr, a, b, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    tl.store(y_ptr + offsets, (y * a + b).to(y_ptr.dtype.element_ty), mask=mask)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = x.clone()  # the kernel works in place on this copy; x itself is left alone
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    scale_shift_inplace_kernel[grid](output, a, b, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
