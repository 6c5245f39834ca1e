"""Learner: the wrapper maps the activation name to a small integer constexpr in Python (0 none, 1 relu, 2 silu) and
hands the kernel a float32 copy of the bias (`bias.float()`); the epilogue adds the fp32 bias row, applies
`tl.maximum(acc, 0.0)` or `acc / (1 + exp(-acc))`, and rounds once.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl

_ACTIVATIONS = {None: 0, "": 0, "relu": 1, "silu": 2}


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
    ACT: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
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
    bias = tl.load(bias_ptr + offs_n * stride_bias, mask=offs_n < N, other=0.0)
    acc = acc + bias[None, :]
    if ACT == 1:
        acc = tl.maximum(acc, 0.0)
    elif ACT == 2:
        acc = acc / (1.0 + tl.exp(-acc))
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def matmul_bias(a, b, bias, activation=None, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
    if a.dim() != 2 or b.dim() != 2 or bias.dim() != 1:
        raise ValueError("expected a 2D, b 2D, bias 1D")
    if a.shape[1] != b.shape[0]:
        raise ValueError(f"inner dimensions differ: {tuple(a.shape)} @ {tuple(b.shape)}")
    if bias.shape[0] != b.shape[1]:
        raise ValueError(f"bias has {bias.shape[0]} values, C has {b.shape[1]} columns")
    if not (a.device == b.device == bias.device):
        raise ValueError("tensors on different devices")
    if not (a.dtype == b.dtype == bias.dtype):
        raise TypeError("dtypes differ")
    if activation not in _ACTIVATIONS:
        raise ValueError(f"unknown activation {activation!r}")
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    bias32 = bias.float()
    BLOCK_M, BLOCK_N, BLOCK_K = BLOCK_M or 32, BLOCK_N or 32, BLOCK_K or 32
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    matmul_bias_kernel[grid](
        a,
        b,
        bias32,
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
        bias32.stride(0),
        ACT=_ACTIVATIONS[activation],
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        BLOCK_K=BLOCK_K,
    )
    return c
