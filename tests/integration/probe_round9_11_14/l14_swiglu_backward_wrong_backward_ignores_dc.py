"""Learner (wrong): tested the backward only with `swiglu(a, b).sum().backward()`, where dc is all ones, and wrote
the backward kernel without dc at all: it stores the local derivatives

    da = b * d silu(a)/da,   db = silu(a)

(the chain rule's dc factor missing). With dc = 1 both are right; the lab's dc is random (randn), so grad_a and
grad_b are wrong everywhere — each off by exactly the factor dc, element by element.

Right verdict: FAIL, grad_a and grad_b (out right), the first diagnosis saying the gradient is not scaled by the
upstream gradient dc (never loaded / the local derivative stored), not only "check the formula".
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _swiglu_fwd_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def _swiglu_bwd_kernel(a_ptr, b_ptr, da_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    silu = a * s
    dsilu = s * (1.0 + a * (1.0 - s))
    da = b * dsilu
    db = silu
    tl.store(da_ptr + offs, da.to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + offs, db.to(db_ptr.dtype.element_ty), mask=mask)


BLOCK = 1024


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            _swiglu_fwd_kernel[(triton.cdiv(n, BLOCK),)](a, b, c, n, BLOCK=BLOCK)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        da = torch.empty_like(a)
        db = torch.empty_like(b)
        n = a.numel()
        if n:
            _swiglu_bwd_kernel[(triton.cdiv(n, BLOCK),)](a, b, da, db, n, BLOCK=BLOCK)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"a and b differ in shape: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"a and b differ in dtype: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"a and b are on {a.device} and {b.device}")
    return SwiGLU.apply(a.contiguous(), b.contiguous())
