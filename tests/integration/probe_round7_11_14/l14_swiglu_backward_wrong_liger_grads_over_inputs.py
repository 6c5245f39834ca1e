"""Learner, copying Liger-Kernel's swiglu backward: the backward kernel stores da over a and db over b (the saved
tensors, "not needed after the backward") and returns a and b as the gradients. In Liger a and b are activations
inside an MLP; here they are the caller's leaf tensors: after c.backward(dc), a holds a.grad's values and a.grad IS a
(one storage): the caller's inputs are destroyed, and an optimizer step on them would read garbage.

Right verdict: FAIL: the backward overwrote the inputs a and b with their gradients (input-modified, naming the
backward), not a pass because grad_a and grad_b hold the right numbers.
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
        n = a.numel()
        if n:  # in place, as Liger: da over a, db over b (each element reads a, b before it writes)
            _bwd[(triton.cdiv(n, BLOCK),)](dc, a, b, a, b, n, BLOCK=BLOCK)
        return a, b


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"a {tuple(a.shape)} and b {tuple(b.shape)} differ")
    if a.dtype != b.dtype or not a.is_floating_point():
        raise TypeError(f"a is {a.dtype}, b is {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"a on {a.device}, b on {b.device}")
    return SwiGLU.apply(a, b)
