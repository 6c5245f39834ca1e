"""Learner: builds the mask as `offsets >= 0 & offsets < n_elements`: & binds tighter than the comparisons (a chained comparison)."""

import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    a,  # scale: a runtime scalar, one compiled kernel serves every value
    b,  # shift: a runtime scalar
    n_elements,  # number of elements: a runtime value, used only in the mask
    BLOCK_SIZE: tl.constexpr,  # elements per program: a compile-time constant, it fixes the block's shape
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)  # [BLOCK_SIZE] element indices of this program
    mask = offsets >= 0 & offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * a + b, mask=mask)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    scale_shift_kernel[grid](x, output, a, b, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
