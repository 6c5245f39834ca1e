"""Learner, with a line copied from a float16 tutorial: the backward kernel stores `da.to(tl.float16)` and
`db.to(tl.float16)` (a hard-coded dtype instead of da_ptr.dtype.element_ty). The float16 cases are exactly right;
the float32 cases round every gradient to float16 (relative error up to 4.9e-4, against rtol 1e-5) before storing
it into the float32 buffer. The forward is right in every dtype.

Right verdict: FAIL on the float32 cases only, grad_a and grad_b (not out), the diagnosis saying the gradients look
rounded to float16 / 16-bit precision (not "check its formula").
"""

import torch
import triton
import triton.language as tl

BLOCK = 1024


@triton.jit
def _fwd(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    c = a * tl.sigmoid(a) * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _bwd(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    sig = tl.sigmoid(a)
    silu = a * sig
    db = dc * silu
    da = dc * b * (sig + silu * (1.0 - sig))
    tl.store(da_ptr + offs, da.to(tl.float16), mask=mask)
    tl.store(db_ptr + offs, db.to(tl.float16), mask=mask)


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            _fwd[(triton.cdiv(n, BLOCK),)](a, b, c, n, BLOCK=BLOCK)
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
            _bwd[(triton.cdiv(n, BLOCK),)](dc, a, b, da, db, n, BLOCK=BLOCK)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"a {tuple(a.shape)} and b {tuple(b.shape)} differ")
    if a.dtype != b.dtype or not a.is_floating_point():
        raise TypeError(f"a is {a.dtype}, b is {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"a on {a.device}, b on {b.device}")
    return SwiGLU.apply(a, b)
