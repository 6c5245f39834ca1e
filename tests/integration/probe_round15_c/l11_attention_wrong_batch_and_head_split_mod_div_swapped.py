"""Probe round 15c, 11/attention, WRONG: both TODOs right, but the learner split program_id(1) into batch and
head the other way round (`batch = bh % n_heads`, `head = bh // n_heads`). With one head per batch element the two
splits give the same address (B = 2, H = 1 passes); with B = 1, H = 2 program bh = 1 reads batch 1, which does not
exist (past the end of q, k, v); with B, H > 1 heads would be swapped.
Right verdict: FAIL at the split (the batch/head lines), not at a mask."""

import math

import torch
import triton
import triton.language as tl

LOG2_E = 1.4426950408889634


@triton.jit
def _attend_to_block_range(
    acc,
    l_i,
    m_i,
    q,
    k_ptrs,
    v_ptrs,
    stride_kn,
    stride_vn,
    offs_m,
    offs_n,
    lo,
    hi,
    seq_len,
    qk_scale,
    MASKED: tl.constexpr,
    CAUSAL: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cols = start_n + offs_n
        if MASKED:
            k = tl.load(k_ptrs + start_n * stride_kn, mask=cols[None, :] < seq_len, other=0.0)
        else:
            k = tl.load(k_ptrs + start_n * stride_kn)
        s = tl.dot(q, k) * qk_scale
        if MASKED:
            v = tl.load(v_ptrs + start_n * stride_vn, mask=cols[:, None] < seq_len, other=0.0)
        else:
            v = tl.load(v_ptrs + start_n * stride_vn)
        if MASKED:
            keep = cols[None, :] < seq_len
            if CAUSAL:
                keep = keep & (offs_m[:, None] >= cols[None, :])
            s = tl.where(keep, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = acc * alpha[:, None]
        acc = tl.dot(p.to(v.dtype), v, acc)
        m_i = m_new
    return acc, l_i, m_i


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
    batch = bh % n_heads
    head = bh // n_heads
    q_ptr += batch.to(tl.int64) * stride_qz + head.to(tl.int64) * stride_qh
    k_ptr += batch.to(tl.int64) * stride_kz + head.to(tl.int64) * stride_kh
    v_ptr += batch.to(tl.int64) * stride_vz + head.to(tl.int64) * stride_vh
    o_ptr += batch.to(tl.int64) * stride_oz + head.to(tl.int64) * stride_oh

    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    q = tl.load(
        q_ptr + offs_m[:, None] * stride_qm + offs_d[None, :], mask=offs_m[:, None] < seq_len, other=0.0
    )
    k_ptrs = k_ptr + offs_n[None, :] * stride_kn + offs_d[:, None]
    v_ptrs = v_ptr + offs_n[:, None] * stride_vn + offs_d[None, :]

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)

    if CAUSAL:
        full_end = start_m * BLOCK_M
        masked_end = tl.minimum((start_m + 1) * BLOCK_M, seq_len)
    else:
        full_end = (seq_len // BLOCK_N) * BLOCK_N
        masked_end = seq_len
    acc, l_i, m_i = _attend_to_block_range(
        acc,
        l_i,
        m_i,
        q,
        k_ptrs,
        v_ptrs,
        stride_kn,
        stride_vn,
        offs_m,
        offs_n,
        0,
        full_end,
        seq_len,
        qk_scale,
        False,
        CAUSAL,
        BLOCK_N,
    )
    acc, l_i, m_i = _attend_to_block_range(
        acc,
        l_i,
        m_i,
        q,
        k_ptrs,
        v_ptrs,
        stride_kn,
        stride_vn,
        offs_m,
        offs_n,
        full_end,
        masked_end,
        seq_len,
        qk_scale,
        True,
        CAUSAL,
        BLOCK_N,
    )

    o = acc / l_i[:, None]
    o_ptrs = o_ptr + offs_m[:, None] * stride_om + offs_d[None, :]
    tl.store(o_ptrs, o.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < seq_len)


def _launch_config(head_dim: int, on_gpu: bool) -> dict:
    if not on_gpu:
        return {"BLOCK_M": 32, "BLOCK_N": 16, "num_warps": 4, "num_stages": 1}
    return {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 8 if head_dim == 128 else 4, "num_stages": 2}


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        raise ValueError(
            f"q, k, v must share one shape [batch, heads, seq, d]; got {tuple(q.shape)}, "
            f"{tuple(k.shape)}, {tuple(v.shape)}"
        )
    if not (q.device == k.device == v.device):
        raise ValueError(f"q, k, v are on {q.device}, {k.device}, {v.device}")
    if q.dtype not in (torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError(f"q, k, v must all be float16 or all bfloat16; got {q.dtype}, {k.dtype}, {v.dtype}")
    batch, heads, seq_len, head_dim = q.shape
    if head_dim not in (16, 32, 64, 128):
        raise ValueError(f"head dimension {head_dim} is not supported (16, 32, 64 or 128)")
    if sm_scale is None:
        sm_scale = 1.0 / math.sqrt(head_dim)
    q, k, v = (t if t.stride(-1) == 1 else t.contiguous() for t in (q, k, v))
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    config = _launch_config(head_dim, q.device.type == "cuda")
    grid = lambda meta: (triton.cdiv(seq_len, meta["BLOCK_M"]), batch * heads)
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
        **config,
    )
    return o
