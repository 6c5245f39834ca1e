"""Learner: derives d silu/da by hand and drops a sign: with s = sigmoid(a), silu' = s * (1 + a * (1 - s)), but the
backward kernel computes `dsilu = s * (1 - a * (1 - s))` (from d/da [a * s] = s + a * s' with s' written as
-s * (1 - s)). db = dc * silu(a) is right, so only grad_a is wrong (everywhere a != 0); the forward is right.

Right verdict: FAIL on grad_a only (out and grad_b right), the first diagnosis naming grad_a (the derivative of
silu / the da formula), ideally the line of dsilu.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def fwd_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bwd_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    dsilu = s * (1.0 - a * (1.0 - s))
    tl.store(da_ptr + offs, (dc * b * dsilu).to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + offs, (dc * a * s).to(db_ptr.dtype.element_ty), mask=mask)


class _SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            fwd_kernel[(triton.cdiv(n, 512),)](a, b, c, n, BLOCK=512)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        dc = dc.contiguous()
        da = torch.empty_like(a)
        db = torch.empty_like(b)
        n = a.numel()
        if n:
            bwd_kernel[(triton.cdiv(n, 512),)](dc, a, b, da, db, n, BLOCK=512)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError("different devices")
    return _SwiGLU.apply(a, b)
