"""Probe round 17, part c — 13/persistent-matmul — OK. tile_coords as the hint says; the tile loop walks rounds of
NUM_PROGRAMS tiles (`for rnd in range(0, tl.cdiv(num_tiles, NUM_PROGRAMS))`), program p takes slot p in even rounds
and slot NUM_PROGRAMS - 1 - p in odd ones (a zigzag deal), and a slot past the last tile is skipped by
`if tile_id < num_tiles:`. Every tile is computed once, by one program.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    """Tile number -> (tile row, tile column) in grouped order: GROUP_M tile rows are walked column by column."""
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((tile_id % num_pid_in_group) % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_persistent_kernel(
    a_ptr,  # *A, shape [M, K]
    b_ptr,  # *B, shape [K, N]
    c_ptr,  # *C, shape [M, N], written by this kernel
    M,
    N,
    K,  # problem size
    stride_am,
    stride_ak,  # A's strides (elements)
    stride_bk,
    stride_bn,  # B's strides
    stride_cm,
    stride_cn,  # C's strides
    NUM_PROGRAMS: tl.constexpr,  # programs launched (= number of SMs, or fewer when there are fewer tiles)
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,  # tile rows per group in the L2-friendly order
):
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    offs_k = tl.arange(0, BLOCK_K)
    pid = tl.program_id(axis=0)
    # Rounds of NUM_PROGRAMS tiles; odd rounds deal them in reverse program order (a zigzag), so the programs
    # that get a tile in a short last round are not always the same ones. A round's tail past num_tiles is skipped.
    for rnd in range(0, tl.cdiv(num_tiles, NUM_PROGRAMS)):
        slot = tl.where(rnd % 2 == 0, pid, NUM_PROGRAMS - 1 - pid)
        tile_id = rnd * NUM_PROGRAMS + slot
        if tile_id < num_tiles:
            pid_m, pid_n = tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
            offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
            offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
            a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
            b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
            acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)  # a fresh accumulator for every tile
            for k in range(0, tl.cdiv(K, BLOCK_K)):
                k_remaining = K - k * BLOCK_K
                a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_remaining), other=0.0)
                b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_remaining) & (offs_n[None, :] < N), other=0.0)
                acc = tl.dot(a, b, acc)
                a_ptrs += BLOCK_K * stride_ak
                b_ptrs += BLOCK_K * stride_bk
            c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
            tl.store(
                c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N)
            )


def num_sms(device) -> int:
    """Programs that run at once: the SM count on a GPU; on the interpreter a small number, so that the test shapes
    have more tiles than programs and the tile loop really loops."""
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 3


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=8, num_programs=None):
    """C = A @ B for 2D A [M, K], B [K, N] of one float dtype (any strides); fp32 accumulation, C in A's dtype."""
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
    BLOCK_N = BLOCK_N or (256 if gpu and a.element_size() == 2 else 128 if gpu else 32)
    BLOCK_K = BLOCK_K or (64 if gpu and a.element_size() == 2 else 32)
    tiles = triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)
    programs = min(tiles, num_programs or num_sms(a.device))
    launch = {}
    if gpu:  # 3 stages of 128 x 256 x 64 fp16 tiles are 144 KB: on a 99 KB GeForce card only 2 fit
        per_stage = (BLOCK_M + BLOCK_N) * BLOCK_K * a.element_size()
        limit = torch.cuda.get_device_properties(a.device).shared_memory_per_block_optin
        launch = {"num_warps": 8, "num_stages": max(1, min(3, (limit - 2048) // per_stage))}
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
        **launch,
    )
    return c
