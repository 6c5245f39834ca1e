"""Learner: SwiGLU forward and backward in Triton, connected by a torch.autograd.Function whose backward takes
`*grad_outputs` (dc = grad_outputs[0]); buffers come from `a.new_empty(a.shape)` and `torch.empty_like`. The
forward saves a and b; the backward kernel computes s = sigmoid(a), da = dc * b * s * (1 + a * (1 - s)),
db = dc * a * s in float32 in one pass.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_bwd_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    da = dc * b * s * (1.0 + a * (1.0 - s))
    db = dc * a * s
    tl.store(da_ptr + offs, da.to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + offs, db.to(db_ptr.dtype.element_ty), mask=mask)


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = a.new_empty(a.shape)
        n = a.numel()
        if n:
            swiglu_fwd_kernel[(triton.cdiv(n, 1024),)](a, b, c, n, BLOCK=1024)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, *grad_outputs):
        a, b = ctx.saved_tensors
        dc = grad_outputs[0].contiguous()
        da = torch.empty_like(a)
        db = torch.empty_like(b)
        n = a.numel()
        if n:
            swiglu_bwd_kernel[(triton.cdiv(n, 1024),)](dc, a, b, da, db, n, BLOCK=1024)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    return SwiGLU.apply(a, b)
