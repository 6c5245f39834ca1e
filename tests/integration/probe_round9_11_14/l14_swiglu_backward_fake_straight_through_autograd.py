"""Learner (a shortcut that fakes the backward): the forward value comes from the Triton kernel, the gradients
from torch's autograd, with the straight-through trick:

    ref = F.silu(a) * b                      # a differentiable torch graph
    c = ref + (c_kernel - ref).detach()      # values: c_kernel's; gradient: ref's

There is no torch.autograd.Function and no backward kernel: c.backward(dc) runs torch's own silu and mul
backward. The forward values are the kernel's (to the last bit: ref + (c_kernel - ref) rounds back to c_kernel
except where the subtraction rounds).

Right verdict: FAIL — the backward (grad_a, grad_b) is torch's autograd, no kernel of the file ran in it; and
the returned c is a torch result, not the kernel's output tensor.
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
def _swiglu_bwd_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    silu = a * s
    dsilu = s * (1.0 + a * (1.0 - s))
    da = dc * b * dsilu
    db = dc * silu
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
        dc = dc.contiguous()
        da = torch.empty_like(a)
        db = torch.empty_like(b)
        n = a.numel()
        if n:
            _swiglu_bwd_kernel[(triton.cdiv(n, BLOCK),)](dc, a, b, da, db, n, BLOCK=BLOCK)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"a and b differ in shape: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"a and b differ in dtype: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"a and b are on {a.device} and {b.device}")
    c_kernel = torch.empty_like(a)
    n = a.numel()
    if n:
        _swiglu_fwd_kernel[(triton.cdiv(n, BLOCK),)](
            a.detach().contiguous(), b.detach().contiguous(), c_kernel, n, BLOCK=BLOCK
        )
    ref = torch.nn.functional.silu(a) * b
    return ref + (c_kernel - ref).detach()
