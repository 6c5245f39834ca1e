"""Learner, copying Triton's tutorial 05 (layer norm backward) for RMS norm, including its weight load
`w = tl.load(W + cols, mask=mask).to(tl.float32)` WITHOUT other=. In the forward that is harmless (padding lanes
are never stored), but in the backward the row sum `tl.sum(xhat * wdy)` reads them: wdy = w * dy is
undefined * 0 in the padding lanes, and undefined * 0 is NaN when the undefined value is NaN (the lab fills
masked-off lanes of a load without other= with NaN, as a GPU gives no guarantee). Every row's c1, so all of dx, is
NaN. Otherwise correct: one partial dw row per row (no lock), summed in a fixed order.

Right verdict: FAIL on grad_x, the first diagnosis naming the load of W without other= in the backward kernel (its
line), not eps or a zero row (the forward output and grad_w are right; rows that are not zero are NaN too).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def rms_fwd(X, W, Y, Rstd, N, stride, eps, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    x = tl.load(X + row * stride + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    tl.store(Y + row * N + cols, (x * rstd * w).to(Y.dtype.element_ty), mask=mask)
    tl.store(Rstd + row, rstd)


@triton.jit
def rms_bwd_dx_fused(DX, DY, DW, X, W, Rstd, stride, N, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * N
    DX += row * N
    DW += row * N  # one partial row per row: no lock, a fixed order in stage 2
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    rstd = tl.load(Rstd + row)
    xhat = x * rstd
    wdy = w * dy
    c1 = tl.sum(xhat * wdy, axis=0) / N
    dx = (wdy - xhat * c1) * rstd
    tl.store(DX + cols, dx.to(DX.dtype.element_ty), mask=mask)
    tl.store(DW + cols, dy * xhat, mask=mask)


@triton.jit
def rms_bwd_dw(DW, FINAL_DW, M, N, BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.0)
    tl.store(FINAL_DW + cols, tl.sum(dw, axis=0).to(FINAL_DW.dtype.element_ty), mask=cols < N)


class RMSNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        M, N = x.shape
        y = torch.empty((M, N), dtype=x.dtype, device=x.device)
        rstd = torch.empty((M,), dtype=torch.float32, device=x.device)
        BLOCK_SIZE_N = max(16, triton.next_power_of_2(N))
        if M:
            rms_fwd[(M,)](x, weight, y, rstd, N, x.stride(0), eps, BLOCK_SIZE_N=BLOCK_SIZE_N)
        ctx.save_for_backward(x, weight, rstd)
        ctx.BLOCK_SIZE_N = BLOCK_SIZE_N
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, rstd = ctx.saved_tensors
        M, N = x.shape
        _dw = torch.zeros((M, N), dtype=torch.float32, device=x.device)
        dw = torch.empty((N,), dtype=w.dtype, device=w.device)
        dy = dy.contiguous()
        dx = torch.empty_like(dy)
        if M:
            rms_bwd_dx_fused[(M,)](dx, dy, _dw, x, w, rstd, x.stride(0), N, BLOCK_SIZE_N=ctx.BLOCK_SIZE_N)
        grid = lambda meta: (triton.cdiv(N, meta["BLOCK_SIZE_N"]),)
        rms_bwd_dw[grid](_dw, dw, M, N, BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
        return dx, dw, None


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1 or weight.shape[0] != x.shape[1]:
        raise ValueError(f"expected x [M, N] and weight [N], got {tuple(x.shape)} and {tuple(weight.shape)}")
    if x.device != weight.device:
        raise ValueError("x and weight are on different devices")
    if x.dtype != weight.dtype:
        raise TypeError(f"x is {x.dtype}, weight is {weight.dtype}")
    if x.stride(-1) != 1:
        raise ValueError("x must have unit stride along its rows")
    return RMSNorm.apply(x, weight.contiguous(), eps)
