"""Learner (wrong): two index vectors for the queries, `offs_m = tl.arange(0, BLOCK_M)` (inside the block) and
`q_rows = start_m * BLOCK_M + offs_m` (in the sequence). Loads and the store use q_rows; the causal mask compares
the BLOCK-LOCAL offs_m with the keys' sequence positions: `offs_m[:, None] >= cols[None, :]`. In query block 0 the
two agree, so every case with S <= BLOCK_M (32 on the interpreter) passes; from query block 1 on, the diagonal block
masks out keys the rows should see (row 32 + i sees keys 0..i of it, not 32..32 + i).

Right verdict: FAIL, only causal cases with S > 32 (rows 32 and later), the first diagnosis pointing at the causal
mask (its line) or at least at the rows past the first query block, not at the scale or the dtype.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def flash_fwd(
    Q,
    K,
    V,
    Out,
    stride_qz,
    stride_qh,
    stride_qm,
    n_heads,
    seq_len,
    qk_scale,
    CAUSAL: tl.constexpr,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    base = (off_hz // n_heads).to(tl.int64) * stride_qz + (off_hz % n_heads).to(tl.int64) * stride_qh
    offs_m = tl.arange(0, BLOCK_M)
    q_rows = start_m * BLOCK_M + offs_m
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(
        Q + base + q_rows[:, None] * stride_qm + offs_d[None, :], mask=q_rows[:, None] < seq_len, other=0.0
    )
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    hi = seq_len
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(
            K + base + cols[None, :] * stride_qm + offs_d[:, None], mask=cols[None, :] < seq_len, other=0.0
        )
        v = tl.load(
            V + base + cols[:, None] * stride_qm + offs_d[None, :], mask=cols[:, None] < seq_len, other=0.0
        )
        qk = tl.dot(q, k) * qk_scale
        mask = cols[None, :] < seq_len
        if CAUSAL:
            mask = mask & (offs_m[:, None] >= cols[None, :])
        qk = tl.where(mask, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        alpha = tl.exp2(m_i - m_new)
        p = tl.exp2(qk - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    acc = acc / l_i[:, None]
    tl.store(
        Out + base + q_rows[:, None] * stride_qm + offs_d[None, :],
        acc.to(Out.dtype.element_ty),
        mask=q_rows[:, None] < seq_len,
    )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or q.shape != k.shape or q.shape != v.shape:
        raise ValueError("q, k, v: one shape [B, H, S, D]")
    if q.dtype not in (torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError("q, k, v must be float16 or bfloat16, all the same")
    B, H, S, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError("head dim must be 16, 32, 64 or 128")
    if sm_scale is None:
        sm_scale = 1.0 / math.sqrt(D)
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    BLOCK_M, BLOCK_N = (128, 64) if q.is_cuda else (32, 16)
    flash_fwd[(triton.cdiv(S, BLOCK_M), B * H)](
        q,
        k,
        v,
        o,
        q.stride(0),
        q.stride(1),
        q.stride(2),
        H,
        S,
        sm_scale * 1.4426950408889634,
        CAUSAL=bool(causal),
        HEAD_DIM=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return o
