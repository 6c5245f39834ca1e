"""Probe round 15b, 9/matmul, CORRECT: a helper @triton.jit function loads any masked 2D tile (used for A and B);
the K loop walks K offsets with tl.range and recomputes the pointers each step (no pointer bumping); the launch order
groups along N instead of M (GROUP_M consecutive tile *columns* share a band, min-clamped at the last band); the
accumulator is passed to tl.dot as acc=. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def load_tile(base, rows, cols, stride_r, stride_c, n_rows, n_cols):
    ptrs = base + rows[:, None] * stride_r + cols[None, :] * stride_c
    return tl.load(ptrs, mask=(rows[:, None] < n_rows) & (cols[None, :] < n_cols), other=0.0)


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
    # bands of GROUP_M tile columns; inside a band, walk down the tile rows column by column
    tiles_per_band = GROUP_M * num_pid_m
    band = pid // tiles_per_band
    first_pid_n = band * GROUP_M
    band_width = tl.minimum(num_pid_n - first_pid_n, GROUP_M)
    local = pid % tiles_per_band
    pid_n = first_pid_n + local % band_width
    pid_m = local // band_width

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in tl.range(0, K, BLOCK_K):
        offs_k = k0 + tl.arange(0, BLOCK_K)
        a = load_tile(a_ptr, offs_m, offs_k, stride_am, stride_ak, M, K)
        b = load_tile(b_ptr, offs_k, offs_n, stride_bk, stride_bn, K, N)
        acc = tl.dot(a, b, acc=acc)

    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


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
    on_cpu = a.device.type == "cpu"
    BLOCK_M = BLOCK_M or (32 if on_cpu else 64)
    BLOCK_N = BLOCK_N or (16 if on_cpu else 128)
    BLOCK_K = BLOCK_K or (16 if on_cpu else 64)
    GROUP_M = GROUP_M or 4
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
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
        num_warps=4,
        num_stages=3 if not on_cpu else 1,
    )
    return c
