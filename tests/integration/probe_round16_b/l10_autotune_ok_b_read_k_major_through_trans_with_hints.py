"""Probe round 16b, 10/autotune-matmul, CORRECT: the kernel reads B K-major: its pointers walk B^T (a [BLOCK_N,
BLOCK_K] tile over B's strides, the N stride first) and tl.trans turns the tile into the [BLOCK_K, BLOCK_N]
operand, as one would for an nn.Linear weight; offs_k carries tl.multiple_of / tl.max_contiguous hints; the
accumulator is fp32 and cast once. Five GPU configs (decode to large square), key M, N, K, a grid lambda over
the chosen config. Right verdict: PASS."""

import os

import torch
import triton
import triton.language as tl


def get_autotune_configs():
    if os.environ.get("TRITON_INTERPRET") == "1":
        return [
            triton.Config(
                {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32, "GROUP_M": 4}, num_warps=4, num_stages=1
            )
        ]
    shapes = [
        # (BLOCK_M, BLOCK_N, BLOCK_K, GROUP_M, num_warps, num_stages)
        (128, 256, 64, 8, 8, 3),  # large square GEMMs
        (128, 128, 32, 8, 4, 4),
        (64, 128, 64, 8, 4, 4),  # medium
        (16, 64, 128, 1, 4, 4),  # a handful of rows (decode)
        (16, 32, 256, 1, 4, 3),
    ]
    return [
        triton.Config({"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": g}, num_warps=w, num_stages=s)
        for bm, bn, bk, g, w, s in shapes
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
    stride_bn,  # B's column stride: B^T's row stride
    stride_bk,  # B's row stride: B^T's column stride
    stride_cm,
    stride_cn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
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
    offs_k = tl.max_contiguous(tl.multiple_of(tl.arange(0, BLOCK_K), BLOCK_K), BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    bt_ptrs = b_ptr + offs_n[:, None] * stride_bn + offs_k[None, :] * stride_bk  # [BLOCK_N, BLOCK_K]

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        bt = tl.load(bt_ptrs, mask=(offs_n[:, None] < N) & (offs_k[None, :] < k_left), other=0.0)
        acc = tl.dot(a, tl.trans(bt), acc)
        a_ptrs += BLOCK_K * stride_ak
        bt_ptrs += BLOCK_K * stride_bk

    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def matmul(a, b):
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

    def grid(meta):
        return (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)

    matmul_kernel[grid](
        a,
        b,
        c,
        M,
        N,
        K,
        a.stride(0),
        a.stride(1),
        b.stride(1),
        b.stride(0),
        c.stride(0),
        c.stride(1),
    )
    return c
