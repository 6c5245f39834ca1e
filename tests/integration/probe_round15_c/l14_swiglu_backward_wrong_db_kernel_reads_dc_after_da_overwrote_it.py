"""Probe round 15c, 14/swiglu-backward, WRONG: two backward kernels to keep each simple, and da is written over
dc's memory to save an allocation, but the db kernel runs second and reads dc from that same memory, so it
computes db = da * silu(a) instead of dc * silu(a). da is right; db is wrong everywhere (by the factor
b * silu'(a)).
Right verdict: FAIL on db (grad of b), saying the db kernel read memory the da kernel had overwritten (dc), not
"check the formula"."""

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
def swiglu_da_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    da = dc * b * s * (1.0 + a * (1.0 - s))
    tl.store(da_ptr + offs, da.to(da_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_db_kernel(dc_ptr, a_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    db = dc * a * tl.sigmoid(a)
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
        da = dc  # reuse dc's memory for da: dc is not needed once da is known
        db = torch.empty_like(b)
        n = a.numel()
        if n:
            grid = (triton.cdiv(n, 1024),)
            swiglu_da_kernel[grid](dc, a, b, da, n, BLOCK=1024)
            swiglu_db_kernel[grid](dc, a, db, n, BLOCK=1024)
        return da, db


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
