"""Learner (correct but different): the configs and the kernel use short tile names, BM / BN / BK / GM (as many
kernels in the wild do) instead of BLOCK_M / BLOCK_N / BLOCK_K / GROUP_M; the grid reads meta["BM"] and meta["BN"].
Five GPU configs, each with its reason, key=["M", "N", "K"]. The names are the file's own business: the
autotuner passes whatever a config names. Right verdict: PASS (and the lab's checks of the search space must read
these tiles too)."""

import os

import torch
import triton
import triton.language as tl


def get_autotune_configs():
    """Short names, as in many kernels in the wild (BM/BN/BK/GM)."""
    if os.environ.get("TRITON_INTERPRET") == "1":
        return [triton.Config({"BM": 32, "BN": 32, "BK": 32, "GM": 4}, num_warps=4, num_stages=1)]
    return [
        triton.Config({"BM": 128, "BN": 256, "BK": 64, "GM": 8}, num_warps=8, num_stages=3),  # big square
        triton.Config({"BM": 128, "BN": 128, "BK": 32, "GM": 8}, num_warps=4, num_stages=4),  # medium
        triton.Config(
            {"BM": 64, "BN": 128, "BK": 64, "GM": 8}, num_warps=4, num_stages=4
        ),  # one wave at 1024^3
        triton.Config({"BM": 16, "BN": 64, "BK": 128, "GM": 1}, num_warps=4, num_stages=4),  # decode
        triton.Config({"BM": 16, "BN": 32, "BK": 256, "GM": 1}, num_warps=4, num_stages=3),  # decode, long K
    ]


@triton.autotune(configs=get_autotune_configs(), key=["M", "N", "K"])
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
):
    pid = tl.program_id(axis=0)
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
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        k_remaining = K - k * BK
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_remaining), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_remaining) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def _check(a, b):
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


def matmul(a, b):
    _check(a, b)
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    grid = lambda meta: (triton.cdiv(M, meta["BM"]) * triton.cdiv(N, meta["BN"]),)  # noqa: E731
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
