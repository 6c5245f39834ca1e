"""Learner (wrong, a fake): the wrapper computes the product with torch, in float32, ref = a.float() @ b.float(),
and then launches the lesson's tiled GEMM on (I, ref): an M x M float32 identity times torch's answer. The Triton
kernel really runs, really uses tl.dot, and its output is torch's answer rounded to a's dtype — but it never loads
a or b. Neither is the answer handed over in the output's dtype (it is float32, the output float16), so a check for
"a kernel that only copies a tensor equal to the output" does not see it.
Right verdict: FAIL (the kernel never read a or b: the answer was computed in torch, which the exercise forbids)."""

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
        acc = tl.dot(a, b, acc)
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
    ref = a.float() @ b.float()  # the answer, in float32: not the output's dtype
    eye = torch.eye(M, device=a.device, dtype=torch.float32)
    dm, dn, dk, num_warps, num_stages = default_tiles(a, M, N)
    BLOCK_M, BLOCK_N, BLOCK_K = BLOCK_M or dm, BLOCK_N or dn, BLOCK_K or dk
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    matmul_kernel[grid](
        eye,
        ref,
        c,
        M,
        N,
        M,  # C = I @ ref: an M x M identity times the M x N answer
        eye.stride(0),
        eye.stride(1),
        ref.stride(0),
        ref.stride(1),
        c.stride(0),
        c.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
        GROUP_M=GROUP_M or 1,
        num_warps=num_warps,
        num_stages=num_stages,
    )
    return c
