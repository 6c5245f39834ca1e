"""Learner: square 16 x 16 tiles (BLOCK_M = BLOCK_N = 16), so one row index vector `rows = start_m * BLOCK +
tl.arange(0, BLOCK)` serves Q, and (the slip) K and V too: the key/value pointers start at the QUERY block's first
row, `k_ptrs = K + rows[None, :] * stride_kn + ...`, and the key loop then adds start_n on top. Query block 0
is right (its rows start at 0); query block j reads keys j * 16 + start_n + i while its mask still tests
`start_n + offs_n < seq_len`, so it attends to the wrong keys and reads past the end of the sequence (into the
next head, or past the tensor for the last one). One-block sequences (S <= 16) pass.

Right verdict: FAIL on the cases with S > 16; the first diagnosis should point at the key/value offsets built from
the query rows (the k_ptrs/v_ptrs line), or at least at the out-of-bounds K load with that as the reason.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def attn_fwd(
    Q,
    K,
    V,
    O,
    stride_qz,
    stride_qh,
    stride_qm,
    stride_kz,
    stride_kh,
    stride_kn,
    stride_vz,
    stride_vh,
    stride_vn,
    stride_oz,
    stride_oh,
    stride_om,
    H,
    seq_len,
    qk_scale,
    CAUSAL: tl.constexpr,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_z = tl.program_id(1) // H
    off_h = tl.program_id(1) % H
    Q += off_z.to(tl.int64) * stride_qz + off_h.to(tl.int64) * stride_qh
    K += off_z.to(tl.int64) * stride_kz + off_h.to(tl.int64) * stride_kh
    V += off_z.to(tl.int64) * stride_vz + off_h.to(tl.int64) * stride_vh
    O += off_z.to(tl.int64) * stride_oz + off_h.to(tl.int64) * stride_oh

    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(Q + rows[:, None] * stride_qm + offs_d[None, :], mask=rows[:, None] < seq_len, other=0.0)
    k_ptrs = K + rows[None, :] * stride_kn + offs_d[:, None]
    v_ptrs = V + rows[:, None] * stride_vn + offs_d[None, :]

    m_i = tl.full([BLOCK_M], -float("inf"), tl.float32)
    l_i = tl.zeros([BLOCK_M], tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
    hi = seq_len
    if CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len)
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(k_ptrs + start_n * stride_kn, mask=cols[None, :] < seq_len, other=0.0)
        s = tl.dot(q, k) * qk_scale
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (rows[:, None] >= cols[None, :])
        s = tl.where(keep, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        v = tl.load(v_ptrs + start_n * stride_vn, mask=cols[:, None] < seq_len, other=0.0)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    o = acc / l_i[:, None]
    tl.store(
        O + rows[:, None] * stride_om + offs_d[None, :],
        o.to(O.dtype.element_ty),
        mask=rows[:, None] < seq_len,
    )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        raise ValueError(
            f"q, k, v must share one 4D shape, got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}"
        )
    if q.dtype not in (torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError(f"q, k, v must be all float16 or all bfloat16, got {q.dtype}, {k.dtype}, {v.dtype}")
    if not (q.device == k.device == v.device):
        raise ValueError("q, k, v on different devices")
    B, H, S, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError(f"head dimension {D} is not supported")
    if sm_scale is None:
        sm_scale = 1.0 / math.sqrt(D)
    q, k, v = (t if t.stride(-1) == 1 else t.contiguous() for t in (q, k, v))
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    BLOCK = 64 if q.is_cuda else 16  # square tiles: one row index for q, k and v
    attn_fwd[(triton.cdiv(S, BLOCK), B * H)](
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
        sm_scale * 1.4426950408889634,
        CAUSAL=bool(causal),
        HEAD_DIM=D,
        BLOCK_M=BLOCK,
        BLOCK_N=BLOCK,
    )
    return o
