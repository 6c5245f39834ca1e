"""Probe round 14, 14/swiglu-backward, CORRECT: silu'(a) written as s + silu * (1 - s) (equal to s * (1 + a(1 - s))),
the backward kernel on a 2D grid of [rows, BLOCK_N] tiles with strides, the forward flat; dc made contiguous,
fp32 math from the loads on. Right verdict: PASS."""

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
def bwd_kernel(
    dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, M, N, stride_m, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr
):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    offs = rows[:, None] * stride_m + cols[None, :]
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    silu = a * s
    dsilu = s + silu * (1.0 - s)
    tl.store(da_ptr + offs, (dc * b * dsilu).to(da_ptr.dtype.element_ty), mask=mask)
    tl.store(db_ptr + offs, (dc * silu).to(db_ptr.dtype.element_ty), mask=mask)


class _SwiGLU(torch.autograd.Function):
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
        da = torch.empty_like(a)
        db = torch.empty_like(b)
        if a.numel():
            M, N = a.shape
            grid = (triton.cdiv(M, 8), triton.cdiv(N, 64))
            bwd_kernel[grid](dc, a, b, da, db, M, N, a.stride(0), BLOCK_M=8, BLOCK_N=64)
        return da, db


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError("a and b must have the same shape")
    if a.dtype != b.dtype:
        raise TypeError("a and b must have the same dtype")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if a.dim() != 2:
        raise ValueError("swiglu expects 2D inputs [M, N]")
    return _SwiGLU.apply(a, b)
