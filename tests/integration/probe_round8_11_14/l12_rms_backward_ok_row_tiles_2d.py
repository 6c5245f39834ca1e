"""Learner: the dx kernel takes BLOCK_M = 4 rows at a time as one [BLOCK_M, BLOCK_N] tile (rows masked past M,
columns past N), computes the per-row mean with tl.sum(axis=1), and folds the tile's dy * x_hat into a
[BLOCK_M, BLOCK_N] fp32 accumulator that is reduced over axis 0 only once, at the end of the program; the programs
take row tiles pid, pid + P, ... . Stage 2 is a Triton kernel adding the P partial rows in order. rstd is loaded for
the whole tile with a row mask (other=0: padding rows give dx = 0 and add nothing).

Right verdict: PASS (every case, every dtype; deterministic: the order of every sum is fixed).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def fwd_kernel(x_ptr, w_ptr, y_ptr, rstd_ptr, N, stride_xm, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def bwd_dx_tiles(
    dy_ptr,
    x_ptr,
    w_ptr,
    rstd_ptr,
    dx_ptr,
    partial_ptr,
    M,
    N,
    stride_xm,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid = tl.program_id(0)
    P = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < N
    w = tl.load(w_ptr + cols, mask=cmask, other=0.0).to(tl.float32)
    acc = tl.zeros([BLOCK_M, BLOCK_N], tl.float32)
    for tile in range(pid, tl.cdiv(M, BLOCK_M), P):
        rows = tile * BLOCK_M + tl.arange(0, BLOCK_M)
        rmask = rows < M
        m2 = rmask[:, None] & cmask[None, :]
        x = tl.load(x_ptr + rows[:, None].to(tl.int64) * stride_xm + cols[None, :], mask=m2, other=0.0).to(
            tl.float32
        )
        dy = tl.load(dy_ptr + rows[:, None].to(tl.int64) * N + cols[None, :], mask=m2, other=0.0).to(
            tl.float32
        )
        rstd = tl.load(rstd_ptr + rows, mask=rmask, other=0.0)
        x_hat = x * rstd[:, None]
        g = dy * w[None, :]
        c = tl.sum(g * x_hat, axis=1) / N
        dx = rstd[:, None] * (g - x_hat * c[:, None])
        tl.store(
            dx_ptr + rows[:, None].to(tl.int64) * N + cols[None, :], dx.to(dx_ptr.dtype.element_ty), mask=m2
        )
        acc += dy * x_hat
    tl.store(partial_ptr + pid * N + cols, tl.sum(acc, axis=0), mask=cmask)


@triton.jit
def bwd_dw_sum(partial_ptr, dw_ptr, P, N, BLOCK: tl.constexpr):
    cols = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = cols < N
    total = tl.zeros([BLOCK], tl.float32)
    for p in range(0, P):
        total += tl.load(partial_ptr + p * N + cols, mask=mask, other=0.0)
    tl.store(dw_ptr + cols, total.to(dw_ptr.dtype.element_ty), mask=mask)


def _block_n(N):
    BLOCK_N = max(16, triton.next_power_of_2(N))
    if BLOCK_N > 65536:
        raise ValueError(f"rows of {N} values do not fit one block")
    return BLOCK_N


class RMSNormFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, weight, eps):
        M, N = x.shape
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
        if M:
            fwd_kernel[(M,)](x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=_block_n(N))
        ctx.save_for_backward(x, weight, rstd)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, weight, rstd = ctx.saved_tensors
        M, N = x.shape
        dy = dy.contiguous()
        dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
        dw = torch.empty((N,), device=x.device, dtype=weight.dtype)
        BLOCK_M = 4
        P = max(
            1,
            min(
                8 if not x.is_cuda else 2 * torch.cuda.get_device_properties(x.device).multi_processor_count,
                triton.cdiv(M, BLOCK_M),
            ),
        )
        partial = torch.zeros((P, N), device=x.device, dtype=torch.float32)
        if M:
            bwd_dx_tiles[(P,)](
                dy, x, weight, rstd, dx, partial, M, N, x.stride(0), BLOCK_M=BLOCK_M, BLOCK_N=_block_n(N)
            )
        bwd_dw_sum[(triton.cdiv(N, 64),)](partial, dw, P, N, BLOCK=64)
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
    return RMSNormFunction.apply(x, weight.contiguous(), eps)
