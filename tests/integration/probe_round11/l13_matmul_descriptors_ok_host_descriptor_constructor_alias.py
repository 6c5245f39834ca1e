"""Learner: the descriptor GEMM with host-side tensor descriptors, built with the TensorDescriptor constructor
itself, imported under a short name: `from triton.tools.tensor_descriptor import TensorDescriptor as TD`, then
`TD(t, list(t.shape), list(t.stride()), block_shape)` (the dataclass's own fields: base, shape, strides,
block_shape). The kernel loads and stores every tile through the descriptors (desc.load / desc.store).

Right verdict: PASS (the GEMM is made of tensor descriptors; the file never spells `TensorDescriptor` or
`from_tensor` as a name or attribute, only in the import).
"""

import torch
import triton
import triton.language as tl

from triton.tools.tensor_descriptor import TensorDescriptor as TD


def host_descriptor(t, block_shape):
    """A host TMA descriptor of the whole row-major 2D tensor t, tiles of block_shape."""
    return TD(t, list(t.shape), list(t.stride()), list(block_shape))


@triton.jit
def tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((tile_id % num_pid_in_group) % group_size_m)
    pid_n = (tile_id % num_pid_in_group) // group_size_m
    return pid_m, pid_n


@triton.jit
def matmul_descriptor_kernel(
    a_desc,
    b_desc,
    c_desc,
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
            a = a_desc.load([off_m, ki * BLOCK_K])
            b = b_desc.load([ki * BLOCK_K, off_n])
            acc = tl.dot(a, b, acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


def num_sms(device):
    if device.type == "cuda":
        return torch.cuda.get_device_properties(device).multi_processor_count
    return 3


def matmul(
    a, b, warp_specialize=False, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=8, num_programs=None
):
    if a.dim() != 2 or b.dim() != 2:
        raise ValueError("matmul expects 2D tensors")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"inner dimensions differ: {tuple(a.shape)} @ {tuple(b.shape)}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    M, K = a.shape
    N = b.shape[1]
    if (K * a.element_size()) % 16 or (N * a.element_size()) % 16:
        raise ValueError(f"TMA needs rows that are a multiple of 16 bytes: K = {K}, N = {N}")
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    gpu = a.device.type == "cuda"
    BLOCK_M = BLOCK_M or (128 if gpu else 32)
    BLOCK_N = BLOCK_N or (256 if gpu and a.element_size() == 2 else 128 if gpu else 32)
    BLOCK_K = BLOCK_K or (64 if gpu and a.element_size() == 2 else 32)
    a_desc = host_descriptor(a, [BLOCK_M, BLOCK_K])
    b_desc = host_descriptor(b, [BLOCK_K, BLOCK_N])
    c_desc = host_descriptor(c, [BLOCK_M, BLOCK_N])
    tiles = triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)
    programs = min(tiles, num_programs or num_sms(a.device))
    matmul_descriptor_kernel[(programs,)](
        a_desc,
        b_desc,
        c_desc,
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
