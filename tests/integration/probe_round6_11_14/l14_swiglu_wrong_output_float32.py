"""Learner: "compute in float32" taken literally: the output tensor is allocated as float32 for every input dtype."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, a * tl.sigmoid(a) * b, mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError("shapes differ")
    if a.dtype != b.dtype:
        raise TypeError("dtypes differ")
    if a.device != b.device:
        raise ValueError("devices differ")
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty(a.shape, dtype=torch.float32, device=a.device)
    n = a.numel()
    swiglu_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK_SIZE=1024)
    return c
