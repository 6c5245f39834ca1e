"""Probe round 14, 12/rms-norm-backward, CORRECT: the forward saves only x and w; the backward kernel recomputes
rstd itself, handles two rows per program as a [2, BLOCK_N] tile (fp32 from the load on), and writes one dw
partial per program (the tile's column sums); a second kernel adds the partial rows from the last to the first.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def fwd_kernel(x_ptr, w_ptr, y_ptr, N, stride_xm, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bwd_kernel(
    dy_ptr, x_ptr, w_ptr, dx_ptr, part_ptr, M, N, stride_xm, eps, ROWS: tl.constexpr, BLOCK_N: tl.constexpr
):
    pid = tl.program_id(0)
    rows = (pid * ROWS + tl.arange(0, ROWS)).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=cols < N, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=1) / N + eps)
    x_hat = x * rstd[:, None]
    g = dy * w[None, :]
    c = tl.sum(g * x_hat, axis=1) / N
    dx = (g - x_hat * c[:, None]) * rstd[:, None]
    tl.store(dx_ptr + rows[:, None] * N + cols[None, :], dx.to(dx_ptr.dtype.element_ty), mask=mask)
    tl.store(part_ptr + pid * N + cols, tl.sum(dy * x_hat, axis=0), mask=cols < N)


@triton.jit
def dw_kernel(part_ptr, dw_ptr, P, N, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    total = tl.zeros([BLOCK], tl.float32)
    for i in range(0, P):
        total += tl.load(part_ptr + (P - 1 - i) * N + cols, mask=mask, other=0.0)
    tl.store(dw_ptr + cols, total.to(dw_ptr.dtype.element_ty), mask=mask)


class _RMSNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, eps):
        M, N = x.shape
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        if M:
            fwd_kernel[(M,)](x, w, y, N, x.stride(0), eps, BLOCK_N=max(16, triton.next_power_of_2(N)))
        ctx.save_for_backward(x, w)
        ctx.eps = eps
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensors
        M, N = x.shape
        dy = dy.contiguous()
        dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
        dw = torch.empty((N,), device=w.device, dtype=w.dtype)
        rows = 2
        P = max(1, triton.cdiv(M, rows))
        part = torch.zeros((P, N), device=x.device, dtype=torch.float32)
        if M:
            bwd_kernel[(P,)](
                dy,
                x,
                w,
                dx,
                part,
                M,
                N,
                x.stride(0),
                ctx.eps,
                ROWS=rows,
                BLOCK_N=max(16, triton.next_power_of_2(N)),
            )
        dw_kernel[(triton.cdiv(N, 64),)](part, dw, P, N, BLOCK=64)
        return dx, dw, None


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError("expected x 2D and weight 1D")
    if weight.shape[0] != x.shape[1]:
        raise ValueError("weight must hold one value per column")
    if x.device != weight.device:
        raise ValueError("x and weight are on different devices")
    if x.dtype != weight.dtype:
        raise TypeError("x and weight dtypes differ")
    if x.stride(-1) != 1:
        x = x.contiguous()
    return _RMSNorm.apply(x, weight.contiguous(), eps)
