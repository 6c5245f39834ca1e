"""Learner: @triton.autotune above @triton.heuristics above @triton.jit — the documented order: the autotuner picks a
config, then the heuristic EVEN_K (K a multiple of the config's K block) is computed from the launch's arguments
and that config. With EVEN_K the K loop loads A and B with the row/column masks only. The config keys are spelled
BLOCK_ROWS / BLOCK_COLS / BLOCK_DEPTH / GROUP_ROWS.

Right verdict: PASS.
"""

import os

import torch
import triton
import triton.language as tl


def get_autotune_configs():
    if os.environ.get("TRITON_INTERPRET") == "1":
        return [
            triton.Config(
                {"BLOCK_ROWS": 32, "BLOCK_COLS": 32, "BLOCK_DEPTH": 32, "GROUP_ROWS": 4},
                num_warps=4,
                num_stages=1,
            )
        ]
    return [
        triton.Config(
            {"BLOCK_ROWS": 128, "BLOCK_COLS": 256, "BLOCK_DEPTH": 64, "GROUP_ROWS": 8},
            num_warps=8,
            num_stages=3,
        ),
        triton.Config(
            {"BLOCK_ROWS": 64, "BLOCK_COLS": 128, "BLOCK_DEPTH": 32, "GROUP_ROWS": 8},
            num_warps=4,
            num_stages=4,
        ),
        triton.Config(
            {"BLOCK_ROWS": 16, "BLOCK_COLS": 64, "BLOCK_DEPTH": 128, "GROUP_ROWS": 1},
            num_warps=4,
            num_stages=4,
        ),
    ]


@triton.autotune(configs=get_autotune_configs(), key=["M", "N", "K"])
@triton.heuristics({"EVEN_K": lambda args: args["K"] % args["BLOCK_DEPTH"] == 0})
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
    BLOCK_ROWS: tl.constexpr,
    BLOCK_COLS: tl.constexpr,
    BLOCK_DEPTH: tl.constexpr,
    GROUP_ROWS: tl.constexpr,
    EVEN_K: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_ROWS)
    num_pid_n = tl.cdiv(N, BLOCK_COLS)
    num_pid_in_group = GROUP_ROWS * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_ROWS
    group_size_m = min(num_pid_m - first_pid_m, GROUP_ROWS)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_ROWS + tl.arange(0, BLOCK_ROWS)
    offs_n = pid_n * BLOCK_COLS + tl.arange(0, BLOCK_COLS)
    offs_k = tl.arange(0, BLOCK_DEPTH)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_ROWS, BLOCK_COLS), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_DEPTH)):
        if EVEN_K:
            a = tl.load(a_ptrs, mask=offs_m[:, None] < M, other=0.0)
            b = tl.load(b_ptrs, mask=offs_n[None, :] < N, other=0.0)
        else:
            k_left = K - k * BLOCK_DEPTH
            a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
            b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_DEPTH * stride_ak
        b_ptrs += BLOCK_DEPTH * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


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
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_ROWS"]) * triton.cdiv(N, meta["BLOCK_COLS"]),)  # noqa: E731
    matmul_kernel[grid](
        a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1)
    )
    return c
