"""Learner (wrong): a Python slip in the constexpr branch, `if ACTIVATION == "relu" or "relu6":` meant as "either
spelling of relu". `X == "relu" or "relu6"` is always truthy (a non-empty string), so relu is applied in every
variant: the plain case (no activation) loses its negative values, and the silu case gets relu where silu keeps
small negative values (silu(-1) = -0.27). Only the relu variant is right. The silu branch below is never reached.
Right verdict: FAIL on the no-activation and silu cases, naming that negative values were zeroed (relu applied
where the case asks for no activation / silu)."""

import torch
import triton
import triton.language as tl


@triton.jit
def matmul_bias_kernel(
    a_ptr,
    b_ptr,
    bias_ptr,
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
    stride_bias,
    ACTIVATION: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
):
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

    bias = tl.load(bias_ptr + offs_n * stride_bias, mask=offs_n < N, other=0.0)
    acc += bias.to(tl.float32)[None, :]
    if ACTIVATION == "relu" or "relu6":  # noqa: SIM222 - meant: either spelling of relu
        acc = tl.maximum(acc, 0.0)
    elif ACTIVATION == "silu":
        acc = acc * tl.sigmoid(acc)

    c = acc.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, c, mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def default_tiles(a, M, N):
    if a.device.type == "cpu":
        return 32, 32, 32, 4, 1
    if M <= 64:
        return 16, 32, 128, 2, 6
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    if a.element_size() <= 2 and triton.cdiv(M, 128) * triton.cdiv(N, 256) >= 0.75 * sms:
        return 128, 256, 64, 8, 4
    return 64, 128, 64, 4, 4 if a.element_size() <= 2 else 3


def matmul_bias(a, b, bias, activation=None, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
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
    dm, dn, dk, num_warps, num_stages = default_tiles(a, M, N)
    if BLOCK_M or BLOCK_N or BLOCK_K:
        num_warps = 8 if (BLOCK_M or dm) * (BLOCK_N or dn) > 128 * 128 else 4
        num_stages = 4 if a.element_size() <= 2 else 3
    BLOCK_M, BLOCK_N, BLOCK_K = BLOCK_M or dm, BLOCK_N or dn, BLOCK_K or dk
    GROUP_M = GROUP_M or (1 if BLOCK_M <= 32 and M <= 64 else 8)
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
