"""Probe round 17b, 9/matmul, CORRECT: K is split by hand into two contiguous halves at a BLOCK_K boundary
(K_SPLIT = cdiv(cdiv(K, BLOCK_K), 2) * BLOCK_K, from the wrapper). One loop walks the first half's steps; each
step also loads the matching slab of the second half (K_SPLIT + k), masked against K, into a second fp32
accumulator. The two accumulators are added after the loop. When K fits one step the second half is empty
(every lane masked). Row-major tile order (GROUP_M accepted, unused). Right verdict: PASS."""

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
    K_SPLIT,
    stride_am,
    stride_ak,
    stride_bk,
    stride_bn,
    stride_cm,
    stride_cn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    m_ok = offs_m[:, None] < M
    n_ok = offs_n[None, :] < N

    acc_lo = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    acc_hi = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, K_SPLIT, BLOCK_K):
        k_lo = k + offs_k
        k_hi = K_SPLIT + k + offs_k
        a_lo = tl.load(
            a_ptr + offs_m[:, None] * stride_am + k_lo[None, :] * stride_ak,
            mask=m_ok & (k_lo[None, :] < K),
            other=0.0,
        )
        b_lo = tl.load(
            b_ptr + k_lo[:, None] * stride_bk + offs_n[None, :] * stride_bn,
            mask=(k_lo[:, None] < K) & n_ok,
            other=0.0,
        )
        a_hi = tl.load(
            a_ptr + offs_m[:, None] * stride_am + k_hi[None, :] * stride_ak,
            mask=m_ok & (k_hi[None, :] < K),
            other=0.0,
        )
        b_hi = tl.load(
            b_ptr + k_hi[:, None] * stride_bk + offs_n[None, :] * stride_bn,
            mask=(k_hi[:, None] < K) & n_ok,
            other=0.0,
        )
        acc_lo = tl.dot(a_lo, b_lo, acc_lo)
        acc_hi = tl.dot(a_hi, b_hi, acc_hi)
    acc = acc_lo + acc_hi

    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=m_ok & n_ok)


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError(f"matmul expects 2D tensors, got {a.dim()}D and {b.dim()}D")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"inner dimensions differ: a is {tuple(a.shape)}, b is {tuple(b.shape)}")
    if a.device != b.device:
        raise ValueError(f"a is on {a.device}, b is on {b.device}")
    if a.dtype != b.dtype:
        raise TypeError(f"a is {a.dtype}, b is {b.dtype}: cast one of them first")
    if a.dtype not in (torch.float16, torch.bfloat16, torch.float32):
        raise TypeError(f"unsupported dtype {a.dtype}")
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    if a.device.type == "cpu":
        bm, bn, bk, warps, stages = 32, 32, 32, 4, 1
    else:
        # each stage holds two A and two B tiles: fewer stages for fp32
        bm, bn, bk, warps, stages = 64, 128, 64, 4, (3 if a.element_size() <= 2 else 2)
    BLOCK_M = BLOCK_M or bm
    BLOCK_N = BLOCK_N or bn
    BLOCK_K = BLOCK_K or bk
    K_SPLIT = triton.cdiv(triton.cdiv(K, BLOCK_K), 2) * BLOCK_K  # where the second half starts
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    matmul_kernel[grid](
        a,
        b,
        c,
        M,
        N,
        K,
        K_SPLIT,
        a.stride(0),
        a.stride(1),
        b.stride(0),
        b.stride(1),
        c.stride(0),
        c.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        GROUP_M=GROUP_M or 1,
        num_warps=warps,
        num_stages=stages,
    )
    return c
