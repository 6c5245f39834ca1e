"""Probe round 16b, 9/matmul, WRONG: B's K mask is pasted from A's and keeps A's axis: `offs_k[None, :]`
(a [1, BLOCK_K] row) instead of `offs_k[:, None]`. With the default 32 x 32 x 32 tile the shapes still
broadcast, so the mask says "column j < k_remaining" for every row of the B tile: B's rows past K are not masked
(the load reads past the end of B on the last K step; M = N = K = 1 reads 31 elements past a 1-element B), and
columns j >= k_remaining of the last step are zeroed. The BLOCK_K = 16, BLOCK_N = 32 variant does not compile
([1, 16] & [1, 32]).
Right verdict: FAIL: out-of-bounds read of B at the B load, naming its K mask (rows of B: offs_k[:, None])."""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(
    a_ptr,  # *A, shape [M, K]
    b_ptr,  # *B, shape [K, N]
    c_ptr,  # *C, shape [M, N]
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
    GROUP_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_remaining), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[None, :] < k_remaining) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


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

    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
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
        GROUP_M=GROUP_M,
        num_warps=num_warps,
        num_stages=num_stages,
    )
    return c
