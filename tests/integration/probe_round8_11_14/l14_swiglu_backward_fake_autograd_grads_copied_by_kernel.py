"""Learner (a fake): a real Triton forward kernel, but the backward asks torch's autograd for the gradients,
`torch.autograd.grad(F.silu(a) * b, (a, b), dc)` on detached copies under torch.enable_grad(), then launches a
Triton kernel that only COPIES them into freshly allocated da and db, so that "a kernel ran in the backward".
The problem says to write the backward kernel (derive d silu/da, check it against torch.autograd, then write it);
here torch's autograd is the backward and the kernel is a memcpy.

Right verdict: FAIL (or refused), the gradients named as copied from tensors torch computed (copied-answer, as
for forward outputs), never a pass.
"""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def copy2(src0_ptr, src1_ptr, dst0_ptr, dst1_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst0_ptr + offs, tl.load(src0_ptr + offs, mask=mask), mask=mask)
    tl.store(dst1_ptr + offs, tl.load(src1_ptr + offs, mask=mask), mask=mask)


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            swiglu_fwd[(triton.cdiv(n, 256),)](a, b, c, n, BLOCK=256)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        with torch.enable_grad():
            a_ = a.detach().float().requires_grad_()
            b_ = b.detach().float().requires_grad_()
            ga, gb = torch.autograd.grad(F.silu(a_) * b_, (a_, b_), dc.float())
        ga, gb = ga.to(a.dtype).contiguous(), gb.to(b.dtype).contiguous()
        da, db = torch.empty_like(a), torch.empty_like(b)
        n = a.numel()
        if n:
            copy2[(triton.cdiv(n, 256),)](ga, gb, da, db, n, BLOCK=256)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    return SwiGLU.apply(a, b)
