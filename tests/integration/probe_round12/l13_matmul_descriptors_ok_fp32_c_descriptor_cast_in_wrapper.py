# OK: the descriptor GEMM stores an fp32 C through an fp32 descriptor; the wrapper returns c32.to(a.dtype). Right verdict: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    width = GROUP_M * num_pid_n
    first = (tile_id // width) * GROUP_M
    size = min(num_pid_m - first, GROUP_M)
    return first + (tile_id % width) % size, (tile_id % width) // size


@triton.jit
def matmul_kernel(
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
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    for tile_id in tl.range(
        tl.program_id(0), num_pid_m * num_pid_n, NUM_PROGRAMS, warp_specialize=WARP_SPECIALIZE
    ):
        pid_m, pid_n = tile_coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(tl.cdiv(K, BLOCK_K)):
            acc = tl.dot(
                a_desc.load([pid_m * BLOCK_M, ki * BLOCK_K]),
                b_desc.load([ki * BLOCK_K, pid_n * BLOCK_N]),
                acc,
            )
        c_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], acc)


def _scratch(size: int, alignment: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda" if torch.cuda.is_available() else "cpu")


def matmul(a, b, warp_specialize=False, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=8):
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise ValueError("matmul expects [M, K] @ [K, N]")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if a.dtype != b.dtype:
        raise TypeError("a and b have different dtypes")
    M, K = a.shape
    N = b.shape[1]
    if (K * a.element_size()) % 16 or (N * a.element_size()) % 16:
        raise ValueError("TMA needs rows that are a multiple of 16 bytes")
    a, b = a.contiguous(), b.contiguous()
    c32 = torch.empty((M, N), device=a.device, dtype=torch.float32)
    if M == 0 or N == 0:
        return c32.to(a.dtype)
    gpu = a.device.type == "cuda"
    BLOCK_M, BLOCK_N, BLOCK_K = (
        BLOCK_M or (128 if gpu else 32),
        BLOCK_N or (128 if gpu else 32),
        BLOCK_K or (64 if gpu else 32),
    )
    triton.set_allocator(_scratch)
    tiles = triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N)
    programs = min(tiles, torch.cuda.get_device_properties(a.device).multi_processor_count if gpu else 3)
    matmul_kernel[(programs,)](
        a,
        b,
        c32,
        M,
        N,
        K,
        NUM_PROGRAMS=programs,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        GROUP_M=GROUP_M,
        WARP_SPECIALIZE=warp_specialize,
    )
    return c32.to(a.dtype)
