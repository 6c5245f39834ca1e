"""Probe round 16b, 9/matmul, CORRECT: 1 x 2 register blocking. Each program owns a BLOCK_M x (2 * BLOCK_N) strip
of C as two fp32 accumulators, for the columns [n0, n0 + BLOCK_N) and [n0 + BLOCK_N, n0 + 2 * BLOCK_N): one A
tile per K step feeds two tl.dot calls (acc= keyword). The grid counts strips, cdiv(N, 2 * BLOCK_N); the second
tile of the last strip may lie wholly past N (masked loads and stores). GROUP_M is accepted and unused (row-major
strip order). Right verdict: PASS."""

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
    pid = tl.program_id(axis=0)
    num_strips_n = tl.cdiv(N, 2 * BLOCK_N)
    pid_m = pid // num_strips_n
    pid_n = pid % num_strips_n

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n0 = pid_n * 2 * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_n1 = offs_n0 + BLOCK_N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b0_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n0[None, :] * stride_bn
    b1_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n1[None, :] * stride_bn

    acc0 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    acc1 = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b0 = tl.load(b0_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n0[None, :] < N), other=0.0)
        b1 = tl.load(b1_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n1[None, :] < N), other=0.0)
        acc0 = tl.dot(a, b0, acc=acc0)
        acc1 = tl.dot(a, b1, acc=acc1)
        a_ptrs += BLOCK_K * stride_ak
        b0_ptrs += BLOCK_K * stride_bk
        b1_ptrs += BLOCK_K * stride_bk

    row_ok = offs_m[:, None] < M
    c_rows = c_ptr + offs_m[:, None] * stride_cm
    tl.store(
        c_rows + offs_n0[None, :] * stride_cn,
        acc0.to(c_ptr.dtype.element_ty),
        mask=row_ok & (offs_n0[None, :] < N),
    )
    tl.store(
        c_rows + offs_n1[None, :] * stride_cn,
        acc1.to(c_ptr.dtype.element_ty),
        mask=row_ok & (offs_n1[None, :] < N),
    )


def default_tiles(a, M, N):
    if a.device.type == "cpu":
        return 32, 32, 32, 4, 1
    if M <= 64:
        return 16, 32, 128, 2, 6
    return 64, 128, 64, 4, 4 if a.element_size() <= 2 else 3


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
    """C = A @ B for 2D tensors of the same float dtype on the same device; fp32 accumulation."""
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
    default_m, default_n, default_k, num_warps, num_stages = default_tiles(a, M, N)
    BLOCK_M = BLOCK_M or default_m
    BLOCK_N = BLOCK_N or default_n
    BLOCK_K = BLOCK_K or default_k
    GROUP_M = GROUP_M or 8

    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, 2 * BLOCK_N),)  # one program per strip of two tiles
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
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        num_warps=num_warps,
        num_stages=num_stages,
    )
    return c
