"""Learner (a shortcut that fakes the exercise): "the hard part is the matmuls". The wrapper materialises the whole
score matrix and its softmax in torch,

    p = torch.softmax((q.float() @ k.float().transpose(-1, -2)) * scale + causal_bias, dim=-1)

([B, H, S, S] in fp32: exactly the S x S tensor FlashAttention exists to never store), and a Triton kernel only
computes O = P @ V, tile by tile with tl.dot. No online softmax, no running max, no rescale: the exercise's
subject (lesson 11.3) is done by torch. The kernel does write every output element, from inputs it loads.

Right verdict: FAIL — the softmax (the reduction the lesson asks for) ran in torch and the [S, S] matrix was
materialised; the lab should name it, as it names no-kernel-launched / copied answers.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def pv_kernel(
    P,
    V,
    O,
    stride_pb,
    stride_pm,
    stride_vb,
    stride_vn,
    seq_len,
    D: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    for start_n in range(0, seq_len, BLOCK_N):
        cols = start_n + offs_n
        p = tl.load(
            P + bh * stride_pb + rows[:, None] * stride_pm + cols[None, :],
            mask=(rows[:, None] < seq_len) & (cols[None, :] < seq_len),
            other=0.0,
        )
        v = tl.load(
            V + bh * stride_vb + cols[:, None] * stride_vn + offs_d[None, :],
            mask=cols[:, None] < seq_len,
            other=0.0,
        )
        acc = tl.dot(p.to(v.dtype), v, acc)
    tl.store(
        O + bh * stride_vb + rows[:, None] * stride_vn + offs_d[None, :],
        acc.to(O.dtype.element_ty),
        mask=rows[:, None] < seq_len,
    )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        raise ValueError("q, k, v must be [B, H, S, D] of one shape")
    if q.dtype not in (torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError("q, k, v: one 16-bit dtype")
    B, H, S, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError("head dim must be 16, 32, 64 or 128")
    scale = 1.0 / math.sqrt(D) if sm_scale is None else sm_scale
    scores = (q.float() @ k.float().transpose(-1, -2)) * scale
    if causal:
        scores = scores.masked_fill(
            torch.ones(S, S, dtype=torch.bool, device=q.device).triu(1), float("-inf")
        )
    p = torch.softmax(scores, dim=-1).reshape(B * H, S, S).contiguous()
    vv = v.reshape(B * H, S, D).contiguous()
    o = torch.empty_like(vv)
    if o.numel() == 0:
        return o.reshape(B, H, S, D)
    BLOCK_M, BLOCK_N = (64, 64) if q.is_cuda else (16, 16)
    pv_kernel[(triton.cdiv(S, BLOCK_M), B * H)](
        p,
        vv,
        o,
        p.stride(0),
        p.stride(1),
        vv.stride(0),
        vv.stride(1),
        S,
        D=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return o.reshape(B, H, S, D)
