"""Learner (a shortcut that fakes the exercise): the forward kernel is the lesson's; in the backward torch computes
dx itself — rstd from the saved buffer, x_hat = x * rstd, g = dy * w, the row mean of g * x_hat (torch's mean, an
allowed op), dx = rstd * (g - x_hat * mean) — and hands it to a "copy" kernel beside x and w (loaded, unused);
dW is torch's sum (allowed). No kernel computes any part of dx.

Right verdict: FAIL — dx, the kernel's part of this exercise per its contract ("the kernels' part is dx and the
partial rows"), was computed by torch (torch-work).
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
def copy_rows_kernel(src_ptr, x_ptr, w_ptr, dst_ptr, N, stride_xm, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0)  # "checked"
    tl.load(w_ptr + cols, mask=mask, other=0.0)
    v = tl.load(src_ptr + row * N + cols, mask=mask, other=0.0)
    tl.store(dst_ptr + row * N + cols, v.to(dst_ptr.dtype.element_ty), mask=mask)


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
        x_hat = x.float() * rstd[:, None]
        g = dy.float() * weight.float()
        dx_t = rstd[:, None] * (g - x_hat * (g * x_hat).mean(-1, keepdim=True))
        dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
        if M > 0:
            copy_rows_kernel[(M,)](dx_t, x, weight, dx, N, x.stride(0), BLOCK_N=_block(N))
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
