"""Probe round 17b, 10/autotune-matmul, WRONG: the reference kernel (grouped launch order) and grid, key M, N, K,
but the two decode configs set "GROUP_M": 0, the learner reading 0 as "no grouping" (1 is no grouping: one tile
row per group). With GROUP_M = 0, num_pid_in_group = 0 and `pid // num_pid_in_group` divides an integer by
zero: on a GPU that is undefined (garbage tile indices), on the interpreter numpy gives 0, so every program
computes tile (0, 0) and the rest of C is never written. The interpreter's own config (GROUP_M 4) is right; the
cases pinned to a GPU tile fail (smallest: 16 x 32, GROUP_M 0; largest: its timing runs every other config).
Right verdict: FAIL on the @autotune cases: an integer division by zero in the launch order, naming the
config with GROUP_M = 0 (the 16 x 32 config's line) as well as the division's line."""

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
        # Large square GEMMs: big tiles, the most reuse per byte loaded. The 4-stage one needs ~192 KB of shared
        # memory: it fits an H100/H200, not an A100 (164 KB), where the autotuner reports it as inf and skips it.
        triton.Config(
            {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=4
        ),
        triton.Config(
            {"BLOCK_M": 128, "BLOCK_N": 256, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=8, num_stages=3
        ),
        # The portable lesson-9 default, and a narrower tile for medium shapes (more programs to fill the SMs).
        triton.Config(
            {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8}, num_warps=4, num_stages=4
        ),
        triton.Config(
            {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 64, "GROUP_M": 8}, num_warps=4, num_stages=4
        ),
        # The same tile when its programs make at most one wave (1024^3: 128 programs, 132 SMs): each SM holds one
        # program, so a longer K step with 4 stages in flight (~192 KB of shared memory) costs no occupancy.
        triton.Config(
            {"BLOCK_M": 64, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8}, num_warps=4, num_stages=4
        ),
        # Skinny M (decode: a handful of tokens times a weight matrix): small BLOCK_M wastes less, long BLOCK_K.
        # GROUP_M 0: no grouping for a single tile row
        triton.Config(
            {"BLOCK_M": 16, "BLOCK_N": 64, "BLOCK_K": 128, "GROUP_M": 0}, num_warps=4, num_stages=4
        ),
        triton.Config(
            {"BLOCK_M": 16, "BLOCK_N": 32, "BLOCK_K": 256, "GROUP_M": 0}, num_warps=4, num_stages=3
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
    grid = lambda meta: (triton.cdiv(M, meta["BLOCK_M"]) * triton.cdiv(N, meta["BLOCK_N"]),)
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
