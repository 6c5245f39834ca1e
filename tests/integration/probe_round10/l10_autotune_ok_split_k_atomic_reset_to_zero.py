"""Learner: a split-K GEMM under @triton.autotune. The grid's second axis is SPLIT_K (from the config): split s
walks the K blocks s, s + SPLIT_K, ... and tl.atomic_add's its fp32 partial tile into C, which the wrapper zeroes
(torch.zeros). Because every timing run of the autotuner adds into C again, the decorator names C in
`reset_to_zero=["c_ptr"]` — Triton zeroes it before each timing run and once more before the real launch. Config
keys are the short BM / BN / BK / GM / SPLIT_K.

Right verdict: PASS (every config, pinned or not: reset_to_zero is exactly what a GPU's autotuner needs here).
"""

import os

import torch
import triton
import triton.language as tl


def get_autotune_configs():
    if os.environ.get("TRITON_INTERPRET") == "1":
        return [
            triton.Config({"BM": 32, "BN": 32, "BK": 32, "GM": 4, "SPLIT_K": 1}, num_warps=4, num_stages=1)
        ]
    return [
        triton.Config({"BM": 128, "BN": 128, "BK": 64, "GM": 8, "SPLIT_K": 1}, num_warps=8, num_stages=3),
        triton.Config({"BM": 64, "BN": 128, "BK": 64, "GM": 8, "SPLIT_K": 2}, num_warps=4, num_stages=4),
        triton.Config({"BM": 16, "BN": 64, "BK": 128, "GM": 1, "SPLIT_K": 4}, num_warps=4, num_stages=4),
        triton.Config({"BM": 32, "BN": 64, "BK": 64, "GM": 4, "SPLIT_K": 2}, num_warps=4, num_stages=3),
    ]


@triton.autotune(configs=get_autotune_configs(), key=["M", "N", "K"], reset_to_zero=["c_ptr"])
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
    BM: tl.constexpr,
    BN: tl.constexpr,
    BK: tl.constexpr,
    GM: tl.constexpr,
    SPLIT_K: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    split = tl.program_id(axis=1)
    num_pid_m = tl.cdiv(M, BM)
    num_pid_n = tl.cdiv(N, BN)
    num_pid_in_group = GM * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GM
    group_size_m = min(num_pid_m - first_pid_m, GM)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BM + tl.arange(0, BM)
    offs_n = pid_n * BN + tl.arange(0, BN)
    offs_k = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for kb in range(split, tl.cdiv(K, BK), SPLIT_K):
        ks = kb * BK + offs_k
        a = tl.load(
            a_ptr + offs_m[:, None] * stride_am + ks[None, :] * stride_ak,
            mask=(offs_m[:, None] < M) & (ks[None, :] < K),
            other=0.0,
        )
        b = tl.load(
            b_ptr + ks[:, None] * stride_bk + offs_n[None, :] * stride_bn,
            mask=(ks[:, None] < K) & (offs_n[None, :] < N),
            other=0.0,
        )
        acc = tl.dot(a, b, acc)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.atomic_add(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def matmul(a, b):
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
    c = torch.zeros((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    grid = lambda meta: (triton.cdiv(M, meta["BM"]) * triton.cdiv(N, meta["BN"]), meta["SPLIT_K"])  # noqa: E731
    matmul_kernel[grid](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)
    )
    return c
