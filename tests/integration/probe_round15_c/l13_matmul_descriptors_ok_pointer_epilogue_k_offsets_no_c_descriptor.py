"""Probe round 15c, 13/matmul-descriptors, CORRECT: descriptors for A and B only; the K loop walks element
offsets (`tl.range(0, K, BLOCK_K)`, the offset handed to `.load` directly); the tile loop is `tl.range(...,
warp_specialize=...)` without flatten; C is stored through masked pointers (int64 rows) instead of a C descriptor.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def _grouped(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    per_group = GROUP_M * num_pid_n
    first_m = (tile_id // per_group) * GROUP_M
    height = tl.minimum(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (tile_id % per_group) % height
    pid_n = (tile_id % per_group) // height
    return pid_m, pid_n


@triton.jit
def matmul_descriptor_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    NUM_PROGRAMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    for tile_id in tl.range(tl.program_id(0), num_tiles, NUM_PROGRAMS, warp_specialize=WARP_SPECIALIZE):
        pid_m, pid_n = _grouped(tile_id, num_pid_m, num_pid_n, GROUP_M)
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k0 in tl.range(0, K, BLOCK_K):  # element offsets, not step numbers
            acc = tl.dot(a_desc.load([off_m, k0]), b_desc.load([k0, off_n]), acc)
        # the epilogue through plain pointers: C is written with a mask instead of a third descriptor
        rows = (off_m + tl.arange(0, BLOCK_M)).to(tl.int64)
        cols = off_n + tl.arange(0, BLOCK_N)
        c_ptrs = c_ptr + rows[:, None] * N + cols[None, :]
        tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(rows[:, None] < M) & (cols[None, :] < N))


def _scratch(size: int, alignment: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda" if torch.cuda.is_available() else "cpu")


def num_sms(device) -> int:
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 3


def matmul(
    a, b, warp_specialize=False, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=8, num_programs=None
):
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
    if (K * a.element_size()) % 16 or (N * a.element_size()) % 16:
        raise ValueError(
            f"TMA needs rows that are a multiple of 16 bytes: K = {K} and N = {N} elements of "
            f"{a.element_size()} bytes"
        )
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    gpu = a.device.type == "cuda"
    BLOCK_M = BLOCK_M or (128 if gpu else 32)
    BLOCK_N = BLOCK_N or (256 if gpu and a.element_size() == 2 else 128 if gpu else 32)
    BLOCK_K = BLOCK_K or (64 if gpu and a.element_size() == 2 else 32)
    triton.set_allocator(_scratch)
    tiles = triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)
    programs = min(tiles, num_programs or num_sms(a.device))
    matmul_descriptor_kernel[(programs,)](
        a,
        b,
        c,
        M,
        N,
        K,
        NUM_PROGRAMS=programs,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        GROUP_M=GROUP_M,
        WARP_SPECIALIZE=warp_specialize,
        **({"num_warps": 8, "num_stages": 3} if gpu else {}),
    )
    return c
