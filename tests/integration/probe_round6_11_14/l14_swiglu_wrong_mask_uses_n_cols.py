"""Learner: flat 1D launch, but the mask compares the flat offset with the row length N instead of numel."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, N, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < N
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        raise ValueError("a and b must match")
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty_like(a)
    M, N = a.shape
    BLOCK_SIZE = 256
    swiglu_kernel[(triton.cdiv(M * N, BLOCK_SIZE),)](a, b, c, N, BLOCK_SIZE=BLOCK_SIZE)
    return c
