"""Probe round 17, part c — 14/swiglu-backward — OK. A capstone file from the empty starter. The backward kernel
computes db = dc * silu(a) first and builds da from it: da = b * (dc * s + db * (1 - s)), which is
dc * b * s * (1 + a * (1 - s)) with dc * a * s replaced by db. The forward saves a and b.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    c = a * tl.sigmoid(a) * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_bwd_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    db = dc * a * s
    # d silu/da = s + a s (1 - s), so dc * b * d silu/da = b * (dc * s + (dc * a * s) * (1 - s)) = b * (dc * s + db * (1 - s))
    da = b * (dc * s + db * (1.0 - s))
    tl.store(db_ptr + offs, db.to(db_ptr.dtype.element_ty), mask=mask)
    tl.store(da_ptr + offs, da.to(da_ptr.dtype.element_ty), mask=mask)


def _grid(n, block):
    return (triton.cdiv(n, block),)


class SwiGLUFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a = a.contiguous()
        b = b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        block = 1024 if a.is_cuda else 128
        if n > 0:
            swiglu_fwd_kernel[_grid(n, block)](a, b, c, n, BLOCK_SIZE=block)
        ctx.save_for_backward(a, b)
        ctx.block = block
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        dc = dc.contiguous()
        da = torch.empty_like(a)
        db = torch.empty_like(b)
        n = a.numel()
        if n > 0:
            swiglu_bwd_kernel[_grid(n, ctx.block)](dc, a, b, da, db, n, BLOCK_SIZE=ctx.block)
        return da, db


def swiglu(a, b):
    """c = silu(a) * b, differentiable in a and b."""
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"devices differ: {a.device} and {b.device}")
    if not a.is_floating_point():
        raise TypeError(f"swiglu needs floating-point tensors, got {a.dtype}")
    return SwiGLUFunction.apply(a, b)


if __name__ == "__main__":
    a = (torch.randn(3, 257) * 3).requires_grad_()
    b = torch.randn(3, 257).requires_grad_()
    dc = torch.randn(3, 257)
    ga, gb = torch.autograd.grad(torch.nn.functional.silu(a) * b, (a, b), dc)
    ma, mb = torch.autograd.grad(swiglu(a, b), (a, b), dc)
    torch.testing.assert_close(ma, ga)
    torch.testing.assert_close(mb, gb)
    print("ok")
