"""Learner: allocates da and db flat (numel) for the 1D kernel and returns them without reshaping."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    c = a * tl.sigmoid(a) * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_bwd_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)  # recomputed: cheaper than saving it
    db = dc * a * s
    da = dc * b * s * (1.0 + a * (1.0 - s))
    tl.store(da_ptr + offs, da.to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + offs, db.to(db_ptr.dtype.element_ty), mask=mask)


BLOCK_SIZE = 1024


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a = a.contiguous()
        b = b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            swiglu_fwd_kernel[(triton.cdiv(n, BLOCK_SIZE),)](a, b, c, n, BLOCK_SIZE=BLOCK_SIZE)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        dc = dc.contiguous()
        da = torch.empty(a.numel(), dtype=a.dtype, device=a.device)
        db = torch.empty(b.numel(), dtype=b.dtype, device=b.device)
        n = a.numel()
        if n:
            swiglu_bwd_kernel[(triton.cdiv(n, BLOCK_SIZE),)](dc, a, b, da, db, n, BLOCK_SIZE=BLOCK_SIZE)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"a and b must have one shape, got {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"a and b must have one dtype, got {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"a is on {a.device}, b is on {b.device}")
    return SwiGLU.apply(a, b)


if __name__ == "__main__":
    import torch.nn.functional as F

    for shape in [(1, 1), (3, 257)]:
        a = (torch.randn(shape) * 3).requires_grad_()
        b = torch.randn(shape).requires_grad_()
        dc = torch.randn(shape)
        c = swiglu(a, b)
        c.backward(dc)
        a2, b2 = a.detach().clone().requires_grad_(), b.detach().clone().requires_grad_()
        (F.silu(a2) * b2).backward(dc)
        torch.testing.assert_close(a.grad, a2.grad)
        torch.testing.assert_close(b.grad, b2.grad)
    print("ok")
