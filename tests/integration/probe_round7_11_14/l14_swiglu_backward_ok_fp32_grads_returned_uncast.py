"""Learner: the backward computes and stores da and db in float32 buffers whatever the inputs' dtype (`torch.empty(...,
dtype=torch.float32)`) and returns them as they are; autograd casts a gradient to its input's dtype itself
(validate_outputs: a float32 gradient for a float16 input arrives as float16 in a.grad), so one rounding happens, at
the same place as in torch.

Right verdict: PASS (every case; a.grad and b.grad come out in the inputs' dtype).
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
    tl.store(da_ptr + offs, da.to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + offs, db.to(db_ptr.dtype.element_ty), mask=mask)


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
        da = torch.empty(a.shape, device=a.device, dtype=torch.float32)  # autograd casts to a's dtype
        db = torch.empty(b.shape, device=b.device, dtype=torch.float32)
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
