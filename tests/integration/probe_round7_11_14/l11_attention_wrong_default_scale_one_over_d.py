"""Learner: the default scale written as 1 / d instead of 1 / sqrt(d) (`sm_scale = 1.0 / D`). Every case with an
explicit sm_scale (the causal variant passes 0.5) is right; every case with the default is the reference at a
smaller scale: a flatter softmax.

Right verdict: FAIL on the non-causal (default-scale) cases only, the first diagnosis naming the scale (cause
`scale`, the output a flatter softmax), ideally the default 1/sqrt(d).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _flash_fwd(
    Q,
    K,
    V,
    O,
    qk_scale,
    H,
    seq_len,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    pid_m = tl.program_id(0)
    bh = tl.program_id(1).to(tl.int64)
    base = bh * seq_len * HEAD_DIM  # contiguous [B, H, S, D]
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(
        Q + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :], mask=offs_m[:, None] < seq_len, other=0.0
    )
    m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    end = tl.minimum((pid_m + 1) * BLOCK_M, seq_len) if CAUSAL else seq_len
    for start_n in range(0, end, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(
            K + base + cols[None, :] * HEAD_DIM + offs_d[:, None], mask=cols[None, :] < seq_len, other=0.0
        )
        s = tl.dot(q, k) * qk_scale
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (cols[None, :] <= offs_m[:, None])
        s = tl.where(keep, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(
            V + base + cols[:, None] * HEAD_DIM + offs_d[None, :], mask=cols[:, None] < seq_len, other=0.0
        )
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    o = acc / l_i[:, None]
    tl.store(
        O + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
        o.to(O.dtype.element_ty),
        mask=offs_m[:, None] < seq_len,
    )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        raise ValueError(
            f"q, k, v must share one 4D shape, got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}"
        )
    if q.dtype not in (torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError(f"q, k, v must be one 16-bit float dtype, got {q.dtype}, {k.dtype}, {v.dtype}")
    B, H, S, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError(f"head dim {D} is not 16, 32, 64 or 128")
    if sm_scale is None:
        sm_scale = 1.0 / D
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    BLOCK_M, BLOCK_N = (128, 64) if q.is_cuda else (32, 16)
    grid = (triton.cdiv(S, BLOCK_M), B * H)
    _flash_fwd[grid](
        q,
        k,
        v,
        o,
        sm_scale * 1.4426950408889634,
        H,
        S,
        HEAD_DIM=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        CAUSAL=bool(causal),
    )
    return o
