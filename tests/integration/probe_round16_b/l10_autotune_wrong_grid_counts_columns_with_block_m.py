"""Probe round 16b, 10/autotune-matmul, WRONG: configs (the hint's five), key and kernel are right, but the grid
lambda counts tile columns with the wrong block: `triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_M"])`.
The interpreter's one config is square (32 x 32), so it is right there; every GPU config is wider than tall
(BLOCK_N = 2 x BLOCK_M), so on a GPU the grid launches about twice the programs, and the extra ones run the grouped
order past its last tile (group_size_m <= 0: a modulo by zero or negative tile coordinates).
Right verdict: FAIL in the pinned-GPU-config cases (@autotune=smallest / largest), naming the grid line."""

import os

import torch
import triton
import triton.language as tl


def get_autotune_configs():
    """A small, deliberate search space: each config is there for a kind of shape, not because it was handy.

    On Triton's CPU interpreter there is no GPU to time, and the autotuner would run every config for every
    new key: it gets one small config instead, which still checks the kernel's logic.
    """
    if os.environ.get("TRITON_INTERPRET") == "1":
        return [
            triton.Config(
                {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32, "GROUP_M": 4}, num_warps=4, num_stages=1
            )
        ]
    return [
        triton.Config(
            {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=4
        ),
        triton.Config(
            {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=3
        ),
        triton.Config(
            {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=4, num_stages=4
        ),
        triton.Config(
            {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8}, num_warps=4, num_stages=4
        ),
        triton.Config(
            {"BLOCK_M": 16, "BLOCK_N": 32, "BLOCK_K": 256, "GROUP_M": 1}, num_warps=4, num_stages=3
        ),
    ]


@triton.autotune(configs=get_autotune_configs(), key=["M", "N", "K"])
@triton.jit
def matmul_kernel(
    a_ptr,  # *A, shape [M, K]
    b_ptr,  # *B, shape [K, N]
    c_ptr,  # *C, shape [M, N], written by this kernel
    M,  # rows of A and C (part of the autotune key)
    N,  # columns of B and C (part of the autotune key)
    K,  # the reduction dimension (part of the autotune key)
    stride_am,  # elements between A[i, k] and A[i + 1, k]
    stride_ak,  # elements between A[i, k] and A[i, k + 1]
    stride_bk,  # elements between B[k, j] and B[k + 1, j]
    stride_bn,  # elements between B[k, j] and B[k, j + 1]
    stride_cm,  # elements between C[i, j] and C[i + 1, j]
    stride_cn,  # elements between C[i, j] and C[i, j + 1]
    BLOCK_M: tl.constexpr,  # from the chosen config
    BLOCK_N: tl.constexpr,  # from the chosen config
    BLOCK_K: tl.constexpr,  # from the chosen config
    GROUP_M: tl.constexpr,  # from the chosen config
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_remaining), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_remaining) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def matmul(a, b):
    """C = A @ B with the tile sizes the autotuner picked for this (M, N, K, dtype)."""
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
    # The tile size is not known until the autotuner has chosen a config, so the grid is a function of it.
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_M"]),)
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
    )
    return c
