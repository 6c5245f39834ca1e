"""Learner: a Triton forward kernel, but the backward written in eager torch (no backward kernel)."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


class SwiGLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        a, b = a.contiguous(), b.contiguous()
        c = torch.empty_like(a)
        n = a.numel()
        if n:
            swiglu_fwd_kernel[(triton.cdiv(n, 512),)](a, b, c, n, BLOCK_SIZE=512)
        ctx.save_for_backward(a, b)
        return c

    @staticmethod
    def backward(ctx, dc):
        a, b = ctx.saved_tensors
        af, bf, dcf = a.float(), b.float(), dc.float()
        s = torch.sigmoid(af)
        da = dcf * bf * s * (1 + af * (1 - s))
        db = dcf * af * s
        return da.to(a.dtype), db.to(b.dtype)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    return SwiGLU.apply(a, b)


if __name__ == "__main__":
    a = (torch.randn(3, 7) * 3).requires_grad_()
    b = torch.randn(3, 7).requires_grad_()
    swiglu(a, b).sum().backward()
    print(a.grad, b.grad)
