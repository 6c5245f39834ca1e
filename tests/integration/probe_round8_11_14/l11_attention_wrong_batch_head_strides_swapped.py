"""Learner: program_id(1) = batch * H + head split into z = bh // H and h = bh % H as usual, but the base offset
multiplies them by each other's stride: `Q += z * stride_qh + h * stride_qz` (batch stride and head stride
swapped, the same slip on K, V and O). With H = 1 the two strides are equal per batch step (stride_z = H * stride_h
= stride_h), so B = 2, H = 1 passes; with B = 1, H = 2 head 1 starts a whole batch (2 * S * D elements) further, past
the end of the tensor.

Right verdict: FAIL on the B = 1, H = 2 case (out of bounds reading Q, K or V of head 1); the first diagnosis should
name the base-offset line (batch and head strides swapped), not a mask.
"""

import math

import torch
import triton
import triton.language as tl

LOG2_E = 1.4426950408889634


@triton.jit
def flash_fwd(
    Q,
    K,
    V,
    O,
    sqz,
    sqh,
    sqm,
    skz,
    skh,
    skn,
    svz,
    svh,
    svn,
    soz,
    soh,
    som,
    H,
    seq_len,
    qk_scale,
    CAUSAL: tl.constexpr,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    z = (bh // H).to(tl.int64)
    h = (bh % H).to(tl.int64)
    Q += z * sqh + h * sqz
    K += z * skh + h * skz
    V += z * svh + h * svz
    O += z * soh + h * soz
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + offs_m[:, None] * sqm + offs_d[None, :], mask=offs_m[:, None] < seq_len, other=0.0)

    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    o_i = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)

    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len)
    else:
        hi = seq_len
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(K + cols[None, :] * skn + offs_d[:, None], mask=cols[None, :] < seq_len, other=0.0)
        v = tl.load(V + cols[:, None] * svn + offs_d[None, :], mask=cols[:, None] < seq_len, other=0.0)
        s = tl.dot(q, k) * qk_scale
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (cols[None, :] <= offs_m[:, None])
        s = tl.where(keep, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        o_i = tl.dot(p.to(v.dtype), v, o_i * alpha[:, None])
        m_i = m_new
    o_i = o_i / l_i[:, None]

    tl.store(
        O + offs_m[:, None] * som + offs_d[None, :],
        o_i.to(O.dtype.element_ty),
        mask=offs_m[:, None] < seq_len,
    )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        raise ValueError(
            f"q, k, v must share one shape, got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}"
        )
    if q.dtype not in (torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError(f"q, k, v must all be float16 or all bfloat16, got {q.dtype}, {k.dtype}, {v.dtype}")
    if not (q.device == k.device == v.device):
        raise ValueError("q, k, v are on different devices")
    B, H, S, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError(f"head dimension {D} is not 16, 32, 64 or 128")
    if sm_scale is None:
        sm_scale = 1.0 / math.sqrt(D)
    q, k, v = (t if t.stride(-1) == 1 else t.contiguous() for t in (q, k, v))
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    BLOCK_M, BLOCK_N = (128, 64) if q.is_cuda else (32, 16)
    grid = (triton.cdiv(S, BLOCK_M), B * H)
    flash_fwd[grid](
        q,
        k,
        v,
        o,
        q.stride(0),
        q.stride(1),
        q.stride(2),
        k.stride(0),
        k.stride(1),
        k.stride(2),
        v.stride(0),
        v.stride(1),
        v.stride(2),
        o.stride(0),
        o.stride(1),
        o.stride(2),
        H,
        S,
        sm_scale * LOG2_E,
        CAUSAL=bool(causal),
        HEAD_DIM=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return o
