"""Learner: the wrapper validates (shape, dtype, device, and `torch.isfinite(t).all()` for a and b), then hands the
kernel flat float32 copies (`a.reshape(-1).float()`, `b.reshape(-1).float()`) and a flat view of the output
(`torch.empty_like(a).view(-1)`); the kernel computes a * sigmoid(a) * b in float32 and rounds once when it stores.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    c = a * tl.sigmoid(a) * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if not (bool(torch.isfinite(a).all()) and bool(torch.isfinite(b).all())):
        raise ValueError("inputs hold inf or NaN")
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    a32 = a.reshape(-1).float()
    b32 = b.reshape(-1).float()
    swiglu_kernel[(triton.cdiv(n, 1024),)](a32, b32, c.view(-1), n, BLOCK_SIZE=1024)
    return c
