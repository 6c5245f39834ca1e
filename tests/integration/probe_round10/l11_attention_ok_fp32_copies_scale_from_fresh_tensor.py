"""Learner: the wrapper hands the kernel float32 copies of q, k and v (`t.float()` — casts, the inputs' own
values), and computes the default scale with torch on a fresh scalar tensor, not on any input:
`float(torch.tensor(float(head_dim)).rsqrt())`. The kernel scales the fp32 scores after tl.dot, keeps p in float32
for p @ v, and rounds once when it stores into o (q's dtype).

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl

LOG2_E = 1.4426950408889634


@triton.jit
def attention_kernel(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
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
    n_heads,
    seq_len,
    qk_scale,
    CAUSAL: tl.constexpr,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    batch = (bh // n_heads).to(tl.int64)
    head = (bh % n_heads).to(tl.int64)
    q_ptr += batch * stride_qz + head * stride_qh
    k_ptr += batch * stride_kz + head * stride_kh
    v_ptr += batch * stride_vz + head * stride_vh
    o_ptr += batch * stride_oz + head * stride_oh
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(
        q_ptr + offs_m[:, None] * stride_qm + offs_d[None, :], mask=offs_m[:, None] < seq_len, other=0.0
    )
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    hi = tl.minimum(seq_len, (start_m + 1) * BLOCK_M) if CAUSAL else seq_len
    for start_n in range(0, hi, BLOCK_N):
        cols = start_n + offs_n
        k = tl.load(
            k_ptr + cols[None, :] * stride_kn + offs_d[:, None], mask=cols[None, :] < seq_len, other=0.0
        )
        v = tl.load(
            v_ptr + cols[:, None] * stride_vn + offs_d[None, :], mask=cols[:, None] < seq_len, other=0.0
        )
        s = tl.dot(q, k) * qk_scale
        keep = cols[None, :] < seq_len
        if CAUSAL:
            keep = keep & (cols[None, :] <= offs_m[:, None])
        s = tl.where(keep, s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        m_ref = tl.where(m_new == float("-inf"), 0.0, m_new)
        p = tl.exp2(s - m_ref[:, None])
        alpha = tl.exp2(m_i - m_ref)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    o = acc / l_i[:, None]
    tl.store(
        o_ptr + offs_m[:, None] * stride_om + offs_d[None, :],
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
    batch, heads, seq_len, head_dim = q.shape
    if head_dim not in (16, 32, 64, 128):
        raise ValueError(f"head dimension {head_dim} is not supported")
    if sm_scale is None:
        sm_scale = float(torch.tensor(float(head_dim)).rsqrt())
    o = torch.empty_like(q)
    q, k, v = q.float().contiguous(), k.float().contiguous(), v.float().contiguous()
    if o.numel() == 0:
        return o
    BLOCK_M, BLOCK_N = 32, 16
    grid = (triton.cdiv(seq_len, BLOCK_M), batch * heads)
    attention_kernel[grid](
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
        heads,
        seq_len,
        sm_scale * LOG2_E,
        CAUSAL=bool(causal),
        HEAD_DIM=head_dim,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return o
