"""Lesson 6 — an FMA chain whose arithmetic intensity you choose. Fill in the TODO, press F6, then F7.

Each element is read once and written once; in between it goes through `degree` fused multiply-adds,
y <- 0.5 * y + x, starting from y = x. That is 2 * degree FLOPs per element for the same bytes, so the
benchmark's sizes (degree = 1, 4, 16, 64, 256, 1024) walk your kernel along the roofline.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements
    degree,  # number of fused multiply-adds per element (a runtime value)
    BLOCK_SIZE: tl.constexpr,  # elements handled by one program
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = x
    # TODO: apply y = y * 0.5 + x, `degree` times. Predict first: at which degree does this kernel
    # stop being memory-bound on an H200? (FP32 FMA peak ~67 TFLOP/s, copy ceiling ~4.2 TB/s.)
    tl.store(output_ptr + offsets, y.to(output_ptr.dtype.element_ty), mask=mask)


def fma_chain(x: torch.Tensor, degree: int, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("fma_chain expects a contiguous tensor")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    fma_chain_kernel[grid](x, output, n_elements, degree, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
