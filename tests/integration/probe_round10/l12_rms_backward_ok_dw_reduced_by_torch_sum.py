"""Learner: dx by a Triton kernel (one program per row), and dW reduced by torch the way the lesson's contract allows
(Unsloth's way): `dw = (dy.float() * (x.float() * rstd[:, None])).sum(0).to(w.dtype)`. torch_ops for this exercise
are sum, mean and rsqrt.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_fwd_kernel(x_ptr, w_ptr, y_ptr, rstd_ptr, N, stride_xm, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def rms_norm_dx_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, N, stride_xm, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.load(rstd_ptr + row)
    x_hat = x * rstd
    g = dy * w
    dx = rstd * (g - x_hat * (tl.sum(g * x_hat, axis=0) / N))
    tl.store(dx_ptr + row * N + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)


def _block(N):
    return max(16, triton.next_power_of_2(N))


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        M, N = x.shape
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
        if M > 0:
            rms_norm_fwd_kernel[(M,)](x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=_block(N))
        ctx.save_for_backward(x, weight, rstd)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, weight, rstd = ctx.saved_tensors
        M, N = x.shape
        dy = dy.contiguous()
        dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
        if M > 0:
            rms_norm_dx_kernel[(M,)](dy, x, weight, rstd, dx, N, x.stride(0), BLOCK_N=_block(N))
        x_hat = x.float() * rstd[:, None]
        dw = (dy.float() * x_hat).sum(0).to(weight.dtype)
        return dx, dw, None


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1 or weight.shape[0] != x.shape[1]:
        raise ValueError("expected x [M, N] and weight [N]")
    if x.device != weight.device:
        raise ValueError("x and weight are on different devices")
    if x.dtype != weight.dtype:
        raise TypeError(f"x is {x.dtype}, weight is {weight.dtype}")
    if x.stride(-1) != 1:
        raise ValueError("x must have unit stride along its rows")
    return RMSNormFunction.apply(x, weight.contiguous(), eps)
