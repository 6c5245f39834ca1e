"""Learner, after the first version of Triton's tutorial 09 (persistent matmul): the flattened loop of
k_tiles * tiles_per_SM steps, `ki` cycling with tl.where, `tile_id += NUM_SMS` when ki wraps to 0, store and zero
the accumulator when ki reaches k_tiles - 1 (as in this round's ok file), but tiles_per_SM = num_tiles // NUM_SMS
WITHOUT the tutorial's `if start_pid < num_tiles % NUM_SMS: tiles_per_SM += 1`. When num_tiles is not a multiple
of the program count, the last num_tiles % NUM_SMS tiles are never computed: C keeps them unwritten. On the
interpreter (3 programs, 32 x 32 tiles) that is M = 63, N = 129 (10 tiles: tile 9 is skipped); 1 and 2 tiles are
exact multiples of their program counts.

Right verdict: FAIL on the M = 63, N = 129 cases only, the first diagnosis saying part of C was never written
(the tile(s) of the last round), pointing at the loop count / tiles_per_SM (the floor division), not at the store's
mask or the grid.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel_persistent(
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
    BLOCK_SIZE_M: tl.constexpr,
    BLOCK_SIZE_N: tl.constexpr,
    BLOCK_SIZE_K: tl.constexpr,
    GROUP_SIZE_M: tl.constexpr,
    NUM_SMS: tl.constexpr,
):
    start_pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    k_tiles = tl.cdiv(K, BLOCK_SIZE_K)
    num_tiles = num_pid_m * num_pid_n

    tiles_per_SM = num_tiles // NUM_SMS  # tiles each program computes

    tile_id = start_pid - NUM_SMS
    ki = -1
    offs_k_for_mask = tl.arange(0, BLOCK_SIZE_K)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    pid_m = 0
    pid_n = 0
    offs_am = tl.arange(0, BLOCK_SIZE_M)
    offs_bn = tl.arange(0, BLOCK_SIZE_N)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)

    for _ in range(0, k_tiles * tiles_per_SM):
        ki = tl.where(ki == k_tiles - 1, 0, ki + 1)
        if ki == 0:
            tile_id += NUM_SMS
            group_id = tile_id // num_pid_in_group
            first_pid_m = group_id * GROUP_SIZE_M
            group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
            pid_m = first_pid_m + (tile_id % group_size_m)
            pid_n = (tile_id % num_pid_in_group) // group_size_m
            offs_am = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_bn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            offs_am = tl.where(offs_am < M, offs_am, 0)
            offs_bn = tl.where(offs_bn < N, offs_bn, 0)
        offs_k = ki * BLOCK_SIZE_K + tl.arange(0, BLOCK_SIZE_K)
        a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
        b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
        a = tl.load(a_ptrs, mask=offs_k_for_mask[None, :] < K - ki * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k_for_mask[:, None] < K - ki * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        if ki == k_tiles - 1:
            offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
            offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
            c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
            c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
            tl.store(c_ptrs, accumulator.to(c_ptr.dtype.element_ty), mask=c_mask)
            accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=8, num_programs=None):
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError(f"matmul expects 2D tensors, got {a.dim()}D and {b.dim()}D")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"incompatible dimensions: {tuple(a.shape)} @ {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    gpu = a.is_cuda
    BLOCK_M = BLOCK_M or (128 if gpu else 32)
    BLOCK_N = BLOCK_N or (128 if gpu else 32)
    BLOCK_K = BLOCK_K or (64 if gpu else 32)
    NUM_SMS = num_programs or (torch.cuda.get_device_properties(a.device).multi_processor_count if gpu else 3)
    num_tiles = triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)
    grid = (min(NUM_SMS, num_tiles),)
    matmul_kernel_persistent[grid](
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
        BLOCK_SIZE_M=BLOCK_M,
        BLOCK_SIZE_N=BLOCK_N,
        BLOCK_SIZE_K=BLOCK_K,
        GROUP_SIZE_M=GROUP_M,
        NUM_SMS=grid[0],
    )
    return c
