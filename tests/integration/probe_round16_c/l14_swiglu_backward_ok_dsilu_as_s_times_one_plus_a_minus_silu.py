"""SwiGLU forward and backward; d silu/da written as s * (1 + a - silu) (= s + a s (1 - s)), reusing silu."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd_kernel(
    a_ptr,  # *a, contiguous
    b_ptr,  # *b, contiguous, same shape
    c_ptr,  # *c, written
    n_elements,
    BLOCK_SIZE: tl.constexpr,
):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def swiglu_bwd_kernel(
    dc_ptr,  # *dc, the gradient at the output, contiguous
    a_ptr,  # *a, saved input
    b_ptr,  # *b, saved input
    da_ptr,  # *da, written
    db_ptr,  # *db, written
    n_elements,
    BLOCK_SIZE: tl.constexpr,
):
    offs = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    silu = a * s
    tl.store(db_ptr + offs, (dc * silu).to(db_ptr.dtype.element_ty), mask=mask)
    tl.store(da_ptr + offs, (dc * b * s * (1.0 + a - silu)).to(da_ptr.dtype.element_ty), mask=mask)


def _block(t) -> int:
    return 1024 if t.is_cuda else 256


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            swiglu_fwd_kernel[(triton.cdiv(n, _block(a)),)](a, b, c, n, BLOCK_SIZE=_block(a))
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        dc = dc.contiguous()
        da, db = torch.empty_like(a), torch.empty_like(b)
        n = a.numel()
        if n:
            swiglu_bwd_kernel[(triton.cdiv(n, _block(a)),)](dc, a, b, da, db, n, BLOCK_SIZE=_block(a))
        return da, db


def swiglu(a, b):
    """silu(a) * b with gradients for a and b; a and b of one shape, float dtype and device."""
    if a.shape != b.shape:
        raise ValueError(f"a and b must have one shape, got {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"a and b must have one dtype, got {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if not a.is_floating_point():
        raise TypeError(f"swiglu needs floating-point inputs, got {a.dtype}")
    return SwiGLU.apply(a, b)
