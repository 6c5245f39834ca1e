"""Probe round 15b, 10/autotune-matmul, CORRECT: GPU configs built from itertools.product and filtered by a
shared-memory budget; the key adds two stride arguments to M, N, K (a layout change re-tunes); the kernel walks K
offsets with tl.range (masks against K, no pointer bumping) and adds tl.dot into the accumulator; the grid is the
cdiv product from meta. Right verdict: PASS."""

import itertools
import os

import torch
import triton
import triton.language as tl


def get_autotune_configs():
    """Tiles and pipelines from a small product, filtered to what fits: (BLOCK_M, BLOCK_N) pairs for big and
    decode shapes, each with two K steps; the decode tiles keep the deeper pipeline."""
    if os.environ.get("TRITON_INTERPRET") == "1":
        return [
            triton.Config(
                {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 32, "GROUP_M": 4}, num_warps=4, num_stages=1
            )
        ]
    tiles = [(128, 256, 8), (128, 128, 4), (16, 64, 4)]
    configs = []
    for (bm, bn, warps), bk in itertools.product(tiles, (64, 128)):
        if bm * bk + bk * bn > 48 * 1024:  # two fp16 operand tiles per stage must leave room for 3 stages
            continue
        stages = 4 if bm <= 16 else 3
        configs.append(
            triton.Config(
                {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 1 if bm <= 16 else 8},
                num_warps=warps,
                num_stages=stages,
            )
        )
    return configs


@triton.autotune(configs=get_autotune_configs(), key=["M", "N", "K", "stride_am", "stride_bk"])
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
    GROUP_M: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = tl.minimum(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, K, BLOCK_K):
        rk = k + tl.arange(0, BLOCK_K)
        a = tl.load(
            a_ptr + rm[:, None] * stride_am + rk[None, :] * stride_ak,
            mask=(rm[:, None] < M) & (rk[None, :] < K),
            other=0.0,
        )
        b = tl.load(
            b_ptr + rk[:, None] * stride_bk + rn[None, :] * stride_bn,
            mask=(rk[:, None] < K) & (rn[None, :] < N),
            other=0.0,
        )
        acc += tl.dot(a, b)

    c_ptrs = c_ptr + rm[:, None] * stride_cm + rn[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


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
    # TODO 3: one program per BLOCK_M x BLOCK_N tile of C, with the block sizes of the chosen config (meta).
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
