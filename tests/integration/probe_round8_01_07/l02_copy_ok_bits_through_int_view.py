"""Probe round 8, 2/copy, CORRECT: a bit-exact copy in the style of dtype-agnostic utility kernels. The wrapper
reinterprets x's storage as integers of the same width (x.view(torch.int16) for float16, x.view(torch.int32) for
float32), allocates an integer output, lets the kernel copy integers, and returns output.view(x.dtype): a view of the
very storage the kernel wrote, with x's dtype and shape. No value is converted, so NaN payloads and -0.0 survive too.
Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl

_SAME_WIDTH_INT = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor (strided layouts come in lesson 7)")
    bits = x.view(_SAME_WIDTH_INT[x.element_size()])
    output_bits = torch.empty_like(bits)
    n_elements = bits.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    copy_kernel[grid](bits, output_bits, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output_bits.view(x.dtype)
