"""Probe round 17, part c — 13/matmul-descriptors — WRONG. The three TODOs filled as the hints say (B's descriptor,
the allocator), with one slip in the load of B's tile: its column coordinate is the tile's row offset,
`b_desc.load([ki * BLOCK_K, off_m])`, where it should be off_n — a copy of the A load's first coordinate. Every
tile of C gets the columns of B at its own row offset (zeros past N).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    """Tile number -> (tile row, tile column) in grouped order, as in exercise 1."""
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((tile_id % num_pid_in_group) % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


def num_sms(device) -> int:
    """One program per SM on a GPU; 3 on the interpreter, so that the test shapes make the tile loop loop."""
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 3


@triton.jit
def matmul_descriptor_kernel(
    a_ptr,  # *A, shape [M, K], row-major
    b_ptr,  # *B, shape [K, N], row-major
    c_ptr,  # *C, shape [M, N], row-major, written by this kernel
    M,
    N,
    K,  # problem size
    NUM_PROGRAMS: tl.constexpr,  # programs launched (one per SM)
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,  # tile rows per group in the L2-friendly order
    WARP_SPECIALIZE: tl.constexpr,  # producer warps issue the loads while consumer warps run tl.dot
):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    for tile_id in tl.range(
        tl.program_id(0), num_tiles, NUM_PROGRAMS, flatten=True, warp_specialize=WARP_SPECIALIZE
    ):
        pid_m, pid_n = tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(tl.cdiv(K, BLOCK_K)):
            a = a_desc.load([off_m, ki * BLOCK_K])  # whole tiles; past the edge reads zeros
            b = b_desc.load([ki * BLOCK_K, off_m])
            acc = tl.dot(a, b, acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))  # clipped at the edge by the descriptor


def _scratch(size: int, alignment: int, stream):
    """Triton's allocator hook: global memory for the descriptors the kernel builds on the device."""
    return torch.empty(size, dtype=torch.int8, device="cuda" if torch.cuda.is_available() else "cpu")


def matmul(
    a, b, warp_specialize=False, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=8, num_programs=None
):
    """C = A @ B for row-major 2D A [M, K], B [K, N] of one float dtype; fp32 accumulation, C in A's dtype."""
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
    a, b = a.contiguous(), b.contiguous()  # the descriptors above assume row-major
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
