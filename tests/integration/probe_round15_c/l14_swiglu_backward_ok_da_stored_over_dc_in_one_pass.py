"""Probe round 15c, 14/swiglu-backward, CORRECT: one backward kernel loads dc, a and b, then stores da over dc's
own memory (each element is read before it is written, by the same program) and db into a new tensor, the way
memory-saving kernels reuse the incoming gradient; backward returns that buffer as a's gradient.
Right verdict: PASS."""

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
def swiglu_bwd_kernel(dc_ptr, a_ptr, b_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    silu = a * s
    db = dc * silu
    da = dc * b * s * (1.0 + a * (1.0 - s))
    tl.store(dc_ptr + offs, da.to(dc_ptr.dtype.element_ty), mask=mask)  # da replaces dc, element by element
    tl.store(db_ptr + offs, db.to(db_ptr.dtype.element_ty), mask=mask)


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a_c, b_c = a.contiguous(), b.contiguous()
        c = torch.empty_like(a_c)
        n = a_c.numel()
        if n:
            swiglu_fwd_kernel[(triton.cdiv(n, 1024),)](a_c, b_c, c, n, BLOCK=1024)
        ctx.save_for_backward(a_c, b_c)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        dc = dc.contiguous()
        if dc.dtype != a.dtype:
            dc = dc.to(a.dtype)
        db = torch.empty_like(b)
        n = a.numel()
        if n:
            swiglu_bwd_kernel[(triton.cdiv(n, 1024),)](dc, a, b, db, n, BLOCK=1024)
        return dc, db


def _check(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"devices differ: {a.device} and {b.device}")


def swiglu(a, b):
    _check(a, b)
    return SwiGLU.apply(a, b)
