"""Learner (a shortcut that fakes the exercise): the sigmoid is done by torch, in place on a float32 copy —
`s = a.to(torch.float32, copy=True).sigmoid_()` (Tensor.sigmoid_, the in-place method) — and handed to the kernel
beside a and b, which only multiplies: c = a * s * b.

Right verdict: FAIL — torch computed the activation the exercise asks the kernel to compute (torch-work).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, s_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.load(s_ptr + offs, mask=mask, other=0.0)
    tl.store(c_ptr + offs, (a * s * b).to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError("shapes differ")
    if a.dtype != b.dtype:
        raise TypeError("dtypes differ")
    if a.device != b.device:
        raise ValueError("devices differ")
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    s = a.to(torch.float32, copy=True).sigmoid_()
    swiglu_kernel[(triton.cdiv(n, 1024),)](a, b, s, c, n, BLOCK=1024)
    return c
