"""Probe round 13, 9/matmul, CORRECT: plain 2D grid (GROUP_M accepted, unused), K walked two BLOCK_K slabs per step into two
accumulators with offset arithmetic (no pointer bumps), summed at the end. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
):
    # 2D grid, no grouping; the K loop takes two BLOCK_K slabs per step, with offsets (no pointer bumps)
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc0 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    acc1 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, 2 * BLOCK_K):
        ka = k0 + rk
        kb = k0 + BLOCK_K + rk
        a0 = tl.load(
            a_ptr + rm[:, None] * stride_am + ka[None, :] * stride_ak,
            mask=(rm[:, None] < M) & (ka[None, :] < K),
            other=0.0,
        )
        b0 = tl.load(
            b_ptr + ka[:, None] * stride_bk + rn[None, :] * stride_bn,
            mask=(ka[:, None] < K) & (rn[None, :] < N),
            other=0.0,
        )
        a1 = tl.load(
            a_ptr + rm[:, None] * stride_am + kb[None, :] * stride_ak,
            mask=(rm[:, None] < M) & (kb[None, :] < K),
            other=0.0,
        )
        b1 = tl.load(
            b_ptr + kb[:, None] * stride_bk + rn[None, :] * stride_bn,
            mask=(kb[:, None] < K) & (rn[None, :] < N),
            other=0.0,
        )
        acc0 = tl.dot(a0, b0, acc0)
        acc1 = tl.dot(a1, b1, acc1)
    c = (acc0 + acc1).to(c_ptr.dtype.element_ty)
    tl.store(
        c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn,
        c,
        mask=(rm[:, None] < M) & (rn[None, :] < N),
    )


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError("matmul expects 2D tensors")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"inner dimensions differ: {tuple(a.shape)} @ {tuple(b.shape)}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if a.dtype != b.dtype:
        raise TypeError(f"a is {a.dtype}, b is {b.dtype}")
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    BM, BN, BK = BLOCK_M or 32, BLOCK_N or 32, BLOCK_K or 16  # GROUP_M: this launch has no grouping
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    matmul_kernel[grid](
        a,
        b,
        c,
        M,
        N,
        K,
        a.stride(0),
        a.stride(1),
        b.stride(0),
        b.stride(1),
        c.stride(0),
        c.stride(1),
        BLOCK_M=BM,
        BLOCK_N=BN,
        BLOCK_K=BK,
    )
    return c
