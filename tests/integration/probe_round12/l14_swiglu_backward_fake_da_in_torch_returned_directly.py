# FAKE: the backward kernel computes db only; da = dc * b * s * (1 + a * (1 - s)) is computed by torch (torch.sigmoid on a) and returned as it is. Right verdict: FAIL (torch computed da).
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
def db_kernel(dc_ptr, a_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(db_ptr + offs, (dc * a * tl.sigmoid(a)).to(db_ptr.dtype.element_ty), mask=mask)


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            fwd_kernel[(triton.cdiv(n, 256),)](a, b, c, n, BLOCK=256)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        dc = dc.contiguous()
        db = torch.empty_like(b)
        n = a.numel()
        if n:
            db_kernel[(triton.cdiv(n, 256),)](dc, a, db, n, BLOCK=256)
        s = torch.sigmoid(a.float())
        da = (dc.float() * b.float() * s * (1 + a.float() * (1 - s))).to(a.dtype)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError("a and b must have one shape")
    if a.dtype != b.dtype:
        raise TypeError("a and b must have one dtype")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if not a.is_floating_point():
        raise TypeError("swiglu needs floating-point inputs")
    return SwiGLU.apply(a, b)
