"""Learner (correct but different): no tl.dot at all. Each K step forms the outer-product block
a[:, :, None] * b[None, :, :] in float32 ([BLOCK_M, BLOCK_K, BLOCK_N]) and sums it over axis 1, the way
Triton-Puzzles builds a matmul before it introduces tl.dot. Slow on a GPU (no tensor cores, a big register
tile), but every product is exact in float32 for fp16 inputs and the sum is accumulated in float32, so the values
match torch. Masks, pointer advance and the masked store are the lesson's. Right verdict: PASS (the lab may well
say it is slow on a GPU; verify judges the values)."""

import torch
import triton
import triton.language as tl


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
    num_pid_n = tl.cdiv(N, BLOCK_N)
    pid_m = pid // num_pid_n
    pid_n = pid % num_pid_n
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :] * stride_ak
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :] * stride_bn
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=(offs_m[:, None] < M) & (offs_k[None, :] < k_left), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_left) & (offs_n[None, :] < N), other=0.0)
        prod = a.to(tl.float32)[:, :, None] * b.to(tl.float32)[None, :, :]  # [BLOCK_M, BLOCK_K, BLOCK_N]
        acc += tl.sum(prod, axis=1)
        a_ptrs += BLOCK_K * stride_ak
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def default_tiles(a, M, N):
    """(BLOCK_M, BLOCK_N, BLOCK_K, num_warps, num_stages) when the caller names no tile."""
    if a.device.type == "cpu":
        return 32, 32, 32, 4, 1
    if M <= 64:
        return 16, 32, 128, 2, 6
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    if a.element_size() <= 2 and triton.cdiv(M, 128) * triton.cdiv(N, 256) >= 0.75 * sms:
        return 128, 256, 64, 8, 4
    return 64, 128, 64, 4, 4 if a.element_size() <= 2 else 3


def check_inputs(a, b):
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


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
    check_inputs(a, b)
    M, K = a.shape
    _, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    dm, dn, dk, num_warps, num_stages = default_tiles(a, M, N)
    BLOCK_M, BLOCK_N, BLOCK_K = BLOCK_M or dm, BLOCK_N or dn, BLOCK_K or dk
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
        GROUP_M=GROUP_M or 1,
        num_warps=num_warps,
        num_stages=1,
    )
    return c
