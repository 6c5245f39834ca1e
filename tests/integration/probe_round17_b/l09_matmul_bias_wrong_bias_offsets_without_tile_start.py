"""Probe round 17b, 9/matmul-bias, WRONG: the epilogue is written and the activations are right, but the bias
offsets are built from tl.arange(0, BLOCK_N) alone, without this tile's column start (pid_n * BLOCK_N): every
column tile adds bias[0 .. BLOCK_N - 1]. The mask `bias_cols < N` keeps the load in bounds. Tiles of column 0
are right, so N <= BLOCK_N passes (N = 1); N = 33 and N = 65 get the wrong bias from column 32 on.
Right verdict: FAIL on N > BLOCK_N: columns from 32 on off by bias[j] - bias[j mod 32], pointing at the bias
offsets (the `bias_cols = tl.arange(0, BLOCK_N)` line; offs_n is the right index)."""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_bias_kernel(
    a_ptr,  # *A, shape [M, K]
    b_ptr,  # *B, shape [K, N]
    bias_ptr,  # *bias, shape [N]: one value per output column
    c_ptr,  # *C, shape [M, N], written by this kernel
    M,  # rows of A and C
    N,  # columns of B and C
    K,  # the reduction dimension
    stride_am,  # elements between A[i, k] and A[i + 1, k]
    stride_ak,  # elements between A[i, k] and A[i, k + 1]
    stride_bk,  # elements between B[k, j] and B[k + 1, j]
    stride_bn,  # elements between B[k, j] and B[k, j + 1]
    stride_cm,  # elements between C[i, j] and C[i + 1, j]
    stride_cn,  # elements between C[i, j] and C[i, j + 1]
    stride_bias,  # elements between bias[j] and bias[j + 1]
    ACTIVATION: tl.constexpr,  # "" (none), "relu" or "silu": chosen at compile time, so no runtime branch
    BLOCK_M: tl.constexpr,  # rows of the C tile a program owns
    BLOCK_N: tl.constexpr,  # columns of the C tile a program owns
    BLOCK_K: tl.constexpr,  # how much of K each step of the loop consumes
    GROUP_M: tl.constexpr,  # tile rows per group in the L2-friendly launch order
):
    # Main loop: exactly the tiled GEMM of matmul.py.
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

    # Epilogue: one bias value per output column, then the activation
    bias_cols = tl.arange(0, BLOCK_N)
    bias = tl.load(bias_ptr + bias_cols * stride_bias, mask=bias_cols < N, other=0.0)
    acc += bias.to(tl.float32)[None, :]
    if ACTIVATION == "relu":
        acc = tl.maximum(acc, 0.0)
    elif ACTIVATION == "silu":
        acc = acc * tl.sigmoid(acc)

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


def matmul_bias(a, b, bias, activation=None, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
    """activation(A @ B + bias): A [M, K], B [K, N] (any strides, e.g. weight.t()), bias [N]."""
    if a.dim() != 2 or b.dim() != 2 or bias.dim() != 1:
        raise ValueError(f"expected a 2D, b 2D, bias 1D; got {a.dim()}D, {b.dim()}D, {bias.dim()}D")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"inner dimensions differ: a is {tuple(a.shape)}, b is {tuple(b.shape)}")
    if bias.shape[0] != b.shape[1]:
        raise ValueError(f"bias has {bias.shape[0]} values, C has {b.shape[1]} columns")
    if not (a.device == b.device == bias.device):
        raise ValueError(f"tensors on different devices: {a.device}, {b.device}, {bias.device}")
    if not (a.dtype == b.dtype == bias.dtype):
        raise TypeError(f"dtypes differ: {a.dtype}, {b.dtype}, {bias.dtype}")
    if a.dtype not in (torch.float16, torch.bfloat16, torch.float32):
        raise TypeError(f"unsupported dtype {a.dtype}")
    if activation not in (None, "relu", "silu"):
        raise ValueError(f"activation must be None, 'relu' or 'silu', got {activation!r}")
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

    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    matmul_bias_kernel[grid](
        a,
        b,
        bias,
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
        bias.stride(0),
        ACTIVATION=activation or "",
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        GROUP_M=GROUP_M,
        num_warps=num_warps,
        num_stages=num_stages,
    )
    return c
