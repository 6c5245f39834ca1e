"""Learner: one program per row writes dx and that row's dw contribution dy * x_hat into a [M, N] float32 buffer,
and backward() returns that buffer (cast to the weight's dtype) as the weight's gradient, never summed over the
rows ("stage 2 later"). It works: autograd checks each gradient against its input's shape and, when the input's
shape [N] broadcasts to the gradient's [M, N], sums the gradient down to [N] itself (validate_outputs /
sum_to) — a deterministic torch sum, the same as the torch `.sum(0)` of round 7's Unsloth-style file, which the
lab passes. Values, shapes and bits are right.

Right verdict: PASS (every case), by the lab's own rule that dw may be reduced by torch; what the learner leaves
to autograd is the same sum written out.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def rms_fwd_kernel(x_ptr, w_ptr, y_ptr, rstd_ptr, N, stride_xm, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def rms_bwd_kernel(dy_ptr, x_ptr, w_ptr, rstd_ptr, dx_ptr, dw_rows_ptr, N, stride_xm, BLOCK_N: tl.constexpr):
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
    tl.store(dw_rows_ptr + row * N + cols, dy * x_hat, mask=mask)


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        M, N = x.shape
        y = torch.empty_like(x)
        rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
        BLOCK_N = max(16, triton.next_power_of_2(N))
        if M:
            rms_fwd_kernel[(M,)](x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=BLOCK_N)
        ctx.save_for_backward(x, weight, rstd)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, weight, rstd = ctx.saved_tensors
        M, N = x.shape
        dy = dy.contiguous()
        dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
        dw_rows = torch.zeros((M, N), device=x.device, dtype=torch.float32)
        BLOCK_N = max(16, triton.next_power_of_2(N))
        if M:
            rms_bwd_kernel[(M,)](dy, x, weight, rstd, dx, dw_rows, N, x.stride(0), BLOCK_N=BLOCK_N)
        return dx, dw_rows.to(weight.dtype), None


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1 or weight.shape[0] != x.shape[1]:
        raise ValueError(f"expected x [M, N] and weight [N], got {tuple(x.shape)} and {tuple(weight.shape)}")
    if x.device != weight.device:
        raise ValueError("x and weight are on different devices")
    if x.dtype != weight.dtype:
        raise TypeError(f"x is {x.dtype}, weight is {weight.dtype}")
    if x.stride(-1) != 1:
        raise ValueError("x must have unit stride along its rows")
    return RMSNormFunction.apply(x, weight.contiguous(), eps)
