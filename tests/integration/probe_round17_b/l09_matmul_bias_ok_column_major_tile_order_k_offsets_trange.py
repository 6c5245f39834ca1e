"""Probe round 17b, 9/matmul-bias, CORRECT: a 1D grid walked in column-major tile order (pid_m runs fastest:
consecutive programs share one column panel of B, the bias tile with it), no grouping (GROUP_M accepted,
unused). The K loop runs over K offsets with tl.range(0, K, BLOCK_K) and rebuilds the pointers from the
offset each step (no pointer bumps), masks `k + offs_k < K`. Epilogue: the bias through its stride, added to
the fp32 accumulator, then relu / silu decided at compile time, one rounding at the store. Right verdict: PASS."""

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
    pid_m = pid % num_pid_m  # column-major: down a column of tiles first
    pid_n = pid // num_pid_m

    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    m_ok = offs_m[:, None] < M
    n_ok = offs_n[None, :] < N

    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, K, BLOCK_K):
        ks = k + offs_k
        a = tl.load(
            a_ptr + offs_m[:, None] * stride_am + ks[None, :] * stride_ak,
            mask=m_ok & (ks[None, :] < K),
            other=0.0,
        )
        b = tl.load(
            b_ptr + ks[:, None] * stride_bk + offs_n[None, :] * stride_bn,
            mask=(ks[:, None] < K) & n_ok,
            other=0.0,
        )
        acc = tl.dot(a, b, acc)

    bias = tl.load(bias_ptr + offs_n * stride_bias, mask=offs_n < N, other=0.0)
    acc = acc + bias.to(tl.float32)[None, :]
    if ACTIVATION == "relu":
        acc = tl.maximum(acc, 0.0)
    elif ACTIVATION == "silu":
        acc = acc * tl.sigmoid(acc)

    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :] * stride_cn
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=m_ok & n_ok)


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
    if a.device.type == "cpu":
        bm, bn, bk, warps, stages = 32, 32, 32, 4, 1
    else:
        bm, bn, bk, warps, stages = 64, 128, 64, 4, 3
    BLOCK_M = BLOCK_M or bm
    BLOCK_N = BLOCK_N or bn
    BLOCK_K = BLOCK_K or bk
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
        GROUP_M=GROUP_M or 1,
        num_warps=warps,
        num_stages=stages,
    )
    return c
