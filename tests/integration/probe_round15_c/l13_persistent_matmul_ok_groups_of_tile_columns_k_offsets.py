"""Probe round 15c, 13/persistent-matmul, CORRECT: the grouped order turned on its side (groups of GROUP_M
tile columns, fewer in the last group, walked row by row), the tile loop as `tl.range`, the K loop over element
offsets (`tl.range(0, K, BLOCK_K)`, addresses rebuilt each step, int64 rows and columns), masks with `other=`.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def tile_coords(tile_id, num_pid_m, num_pid_n, GROUP: tl.constexpr):
    """Grouped order turned on its side: a group is GROUP tile *columns* (fewer in the last one), walked row by row,
    so the programs working at once share columns of B (suits a wide B, a short A)."""
    tiles_per_group = GROUP * num_pid_m
    group = tile_id // tiles_per_group
    first_pid_n = group * GROUP
    width = tl.minimum(num_pid_n - first_pid_n, GROUP)
    within = tile_id - group * tiles_per_group
    pid_n = first_pid_n + within % width
    pid_m = within // width
    return pid_m, pid_n


@triton.jit
def matmul_persistent_kernel(
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
    NUM_PROGRAMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    offs_k = tl.arange(0, BLOCK_K)
    for tile_id in tl.range(tl.program_id(0), num_tiles, NUM_PROGRAMS):
        pid_m, pid_n = tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
        rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)).to(tl.int64)
        cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)).to(tl.int64)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in tl.range(0, K, BLOCK_K):
            ks = k0 + offs_k
            a = tl.load(
                a_ptr + rows[:, None] * stride_am + ks[None, :] * stride_ak,
                mask=(rows[:, None] < M) & (ks[None, :] < K),
                other=0.0,
            )
            b = tl.load(
                b_ptr + ks[:, None] * stride_bk + cols[None, :] * stride_bn,
                mask=(ks[:, None] < K) & (cols[None, :] < N),
                other=0.0,
            )
            acc = tl.dot(a, b, acc)
        tl.store(
            c_ptr + rows[:, None] * stride_cm + cols[None, :] * stride_cn,
            acc.to(c_ptr.dtype.element_ty),
            mask=(rows[:, None] < M) & (cols[None, :] < N),
        )


def num_sms(device) -> int:
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 3


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=8, num_programs=None):
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError(f"matmul expects 2D tensors, got {a.dim()}D and {b.dim()}D")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"inner dimensions differ: a is {tuple(a.shape)}, b is {tuple(b.shape)}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    gpu = a.device.type == "cuda"
    BLOCK_M = BLOCK_M or (128 if gpu else 32)
    BLOCK_N = BLOCK_N or (128 if gpu else 32)
    BLOCK_K = BLOCK_K or (64 if gpu else 32)
    tiles = triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)
    programs = min(tiles, num_programs or num_sms(a.device))
    matmul_persistent_kernel[(programs,)](
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
        NUM_PROGRAMS=programs,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        GROUP_M=GROUP_M,
    )
    return c
