"""Probe round 14, 11/attention, WRONG: the single-loop kernel of this round's 3D-grid file with the causal key
bound clamped to `seq_len - 1` (the last key's index used as an exclusive end): when the last key starts a key
block of its own (S = 1, S = 33 with BLOCK_N = 16) that block is never visited, so the last query loses its own
key. Right verdict: FAIL on the causal cases, naming the loop bound."""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def attention_kernel(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
    stride_b,
    stride_h,
    stride_s,
    seq_len,
    qk_scale,
    CAUSAL: tl.constexpr,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    start_m = tl.program_id(0)
    head = tl.program_id(1).to(tl.int64)
    batch = tl.program_id(2).to(tl.int64)
    base = batch * stride_b + head * stride_h
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(
        q_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :], mask=offs_m[:, None] < seq_len, other=0.0
    )
    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len - 1)  # the last key is seq_len - 1
    else:
        hi = seq_len
    for start_n in tl.range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(
            k_ptr + base + cols[None, :] * stride_s + offs_d[:, None], mask=cols[None, :] < seq_len, other=0.0
        )
        s = tl.dot(q, k) * qk_scale  # scale * log2(e): base-2 units, in fp32
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (offs_m[:, None] >= cols[None, :])
        s = tl.where(keep, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        m_use = tl.where(m_new == -float("inf"), 0.0, m_new)  # query rows past the end see no key
        p = tl.exp2(s - m_use[:, None])
        alpha = tl.exp2(m_i - m_use)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(
            v_ptr + base + cols[:, None] * stride_s + offs_d[None, :], mask=cols[:, None] < seq_len, other=0.0
        )
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    o = acc / tl.where(l_i == 0.0, 1.0, l_i)[:, None]
    tl.store(
        o_ptr + base + offs_m[:, None] * stride_s + offs_d[None, :],
        o.to(o_ptr.dtype.element_ty),
        mask=offs_m[:, None] < seq_len,
    )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        raise ValueError("q, k, v must share one shape [batch, heads, seq, d]")
    if not (q.device == k.device == v.device):
        raise ValueError("q, k, v are on different devices")
    if q.dtype not in (torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError("q, k, v must all be float16 or all bfloat16")
    B, H, S, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError(f"head dimension {D} is not supported")
    scale = sm_scale if sm_scale is not None else 1.0 / math.sqrt(D)
    q, k, v = (t.contiguous() for t in (q, k, v))
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    BLOCK_M, BLOCK_N = 32, 16
    grid = (triton.cdiv(S, BLOCK_M), H, B)
    attention_kernel[grid](
        q,
        k,
        v,
        o,
        q.stride(0),
        q.stride(1),
        q.stride(2),
        S,
        scale * 1.4426950408889634,
        CAUSAL=bool(causal),
        HEAD_DIM=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return o
