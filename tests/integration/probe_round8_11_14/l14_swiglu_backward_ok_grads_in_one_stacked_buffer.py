"""Learner: the backward allocates ONE buffer `grads = torch.empty((2, n), dtype=a.dtype)` and its kernel writes
da into row 0 and db into row 1 (`db_ptr = grads_ptr + n`); backward() returns the two rows as views,
`grads[0].view_as(a), grads[1].view_as(b)` — two gradients sharing one storage (autograd accumulates them into
a.grad and b.grad, which are separate tensors). The forward saves a and b; silu' = s * (1 + a * (1 - s)).
Flattened inputs (any shape), fp32 maths, one cast on each store.

Right verdict: PASS (every case: out, grad_a and grad_b right).
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
def swiglu_bwd_kernel(dc_ptr, a_ptr, b_ptr, grads_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    da = dc * b * s * (1.0 + a * (1.0 - s))
    db = dc * a * s
    tl.store(grads_ptr + offs, da.to(grads_ptr.dtype.element_ty), mask=mask)
    tl.store(grads_ptr + n + offs, db.to(grads_ptr.dtype.element_ty), mask=mask)


class SwiGLUFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            swiglu_fwd_kernel[(triton.cdiv(n, 256),)](a, b, c, n, BLOCK=256)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        n = a.numel()
        grads = torch.empty((2, n), device=a.device, dtype=a.dtype)
        if n:
            swiglu_bwd_kernel[(triton.cdiv(n, 256),)](dc.contiguous(), a, b, grads, n, BLOCK=256)
        return grads[0].view_as(a), grads[1].view_as(b)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"a and b must have one shape, got {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"a and b must have one dtype, got {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if not a.is_floating_point():
        raise TypeError(f"swiglu needs floating-point inputs, got {a.dtype}")
    return SwiGLUFn.apply(a, b)
