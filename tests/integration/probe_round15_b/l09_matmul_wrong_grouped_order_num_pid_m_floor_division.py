"""Probe round 15b, 9/matmul, WRONG: the learner's kernel with the grouped launch order of the lesson text (the
"extra"), typed with num_pid_m = M // BLOCK_M (floor) instead of tl.cdiv(M, BLOCK_M). Whenever M is not a multiple
of BLOCK_M the last band's group_size_m = min(num_pid_m - first_pid_m, GROUP_M) is 0 (or too small), and
pid % 0, pid // 0 send that band's programs to the wrong tiles: the last tile rows are never written. M = 1, N = 1
and M = 32 pass.
Right verdict: FAIL, tiles of the last row band unwritten, naming num_pid_m's floor (or the group size) line."""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(
    a_ptr,  # *A, shape [M, K]
    b_ptr,  # *B, shape [K, N]
    c_ptr,  # *C, shape [M, N], written by this kernel
    M,  # rows of A and C
    N,  # columns of B and C
    K,  # the reduction dimension: columns of A, rows of B
    stride_am,  # elements between A[i, k] and A[i + 1, k]
    stride_ak,  # elements between A[i, k] and A[i, k + 1]
    stride_bk,  # elements between B[k, j] and B[k + 1, j]
    stride_bn,  # elements between B[k, j] and B[k, j + 1]
    stride_cm,  # elements between C[i, j] and C[i + 1, j]
    stride_cn,  # elements between C[i, j] and C[i, j + 1]
    BLOCK_M: tl.constexpr,  # rows of the C tile a program owns
    BLOCK_N: tl.constexpr,  # columns of the C tile a program owns
    BLOCK_K: tl.constexpr,  # how much of K each step of the loop consumes
    GROUP_M: tl.constexpr,  # tile rows per group in the grouped launch order
):
    # 1. Which output tile is mine? The grouped order from the lesson text.
    pid = tl.program_id(axis=0)
    num_pid_m = M // BLOCK_M
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m

    # 2. My tile's indices and the first K slice's pointers.
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)

    # 3. The K loop.
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_remaining), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_remaining) & (offs_n[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk

    # 4. Round and store, masked at the edges.
    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def default_tiles(a, M, N):
    """(BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages) when the caller names no tile.

    On a GPU the tile is chosen by wave count. A 128 x 256 x 64 tile (8 warps, 4 stages, 192 KB of shared memory
    on an H100/H200) gives the most reuse per byte loaded, and wins from 2048^3 up: 0.92-0.98x cuBLAS on an H200.
    But a 1024^3 GEMM has only 32 such tiles for 132 SMs: three quarters of the GPU would idle. Below about one
    wave of big tiles, 64 x 128 x 64 (4 warps) makes 128 programs, one per SM: 0.92x instead of 0.57x. A handful
    of rows (M <= 64, a decode step) gets a 16-row tile with a long K step (0.97x at 16 x 4096 x 4096).
    On Triton's CPU interpreter (CPU tensors): 32 x 32 x 32, so small test shapes still span several tiles and
    several K steps.
    """
    if a.device.type == "cpu":
        return 32, 32, 32, 4, 1
    if M <= 64:
        return 16, 32, 128, 2, 6
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    if a.element_size() <= 2 and triton.cdiv(M, 128) * triton.cdiv(N, 256) >= 0.75 * sms:
        return 128, 256, 64, 8, 4
    return 64, 128, 64, 4, 4 if a.element_size() <= 2 else 3


def fit_stages(a, BLOCK_M, BLOCK_N, BLOCK_K, num_stages):
    """num_stages, or fewer where this GPU's shared memory cannot hold them: each stage keeps one A tile and one B
    tile in flight. 227 KB per program on an H100/H200 (4 stages of 128 x 256 x 64 in fp16 = 192 KB), 163 KB on an
    A100 (3 stages), 99 KB on most GeForce and workstation cards (2 stages). Too many stages fail at launch with
    OutOfResources."""
    if a.device.type != "cuda":
        return num_stages
    limit = torch.cuda.get_device_properties(a.device).shared_memory_per_block_optin
    per_stage = (BLOCK_M + BLOCK_N) * BLOCK_K * a.element_size()
    return max(1, min(num_stages, (limit - 2048) // per_stage))


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
    """C = A @ B for 2D tensors of the same float dtype on the same device; fp32 accumulation."""
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

    default_m, default_n, default_k, num_warps, num_stages = default_tiles(a, M, N)
    if BLOCK_M or BLOCK_N or BLOCK_K:  # a caller's tile: launch options that suit its size
        num_warps = 8 if (BLOCK_M or default_m) * (BLOCK_N or default_n) > 128 * 128 else 4
        num_stages = 4 if a.element_size() <= 2 else 3  # fp32 tiles take twice the shared memory per stage
    BLOCK_M = BLOCK_M or default_m
    BLOCK_N = BLOCK_N or default_n
    BLOCK_K = BLOCK_K or default_k
    GROUP_M = GROUP_M or (
        1 if BLOCK_M <= 32 and M <= 64 else 8
    )  # one tile row: grouping has nothing to share
    num_stages = fit_stages(a, BLOCK_M, BLOCK_N, BLOCK_K, num_stages)

    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)  # one program per output tile
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
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        GROUP_M=GROUP_M,
        num_warps=num_warps,
        num_stages=num_stages,
    )
    return c
