"""Learner (wrong): folds log2(e) into the DEFAULT scale only. The wrapper reads

    qk_scale = sm_scale if sm_scale is not None else LOG2E / math.sqrt(D)

so with no sm_scale the kernel's exp2 gets scale * log2(e) (right), but an explicit sm_scale goes in bare: exp2 of
s * 0.5 is exp of s * 0.5 * ln 2, softmax at 0.347 instead of 0.5. The kernel itself is the diagonal-first kernel
of this round's ok file. In the lesson's cases only the causal variant passes sm_scale (0.5), so only causal cases
fail; the causal mask is right.

Right verdict: FAIL, every causal case, the first diagnosis naming the scale (explicit sm_scale without log2(e):
the fitted scale 0.5 * ln 2, form ln2) and, better, the wrapper's qk_scale line — not the causal mask.
"""

import math

import torch
import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def _step(
    acc,
    l_i,
    m_i,
    q,
    k_base,
    v_base,
    stride_n,
    q_idx,
    offs_n,
    offs_d,
    start_n,
    seq_len,
    qk_scale,
    MASKED: tl.constexpr,
    CAUSAL: tl.constexpr,
):
    k_idx = start_n + offs_n
    k = tl.load(
        k_base + k_idx[:, None] * stride_n + offs_d[None, :], mask=k_idx[:, None] < seq_len, other=0.0
    )
    v = tl.load(
        v_base + k_idx[:, None] * stride_n + offs_d[None, :], mask=k_idx[:, None] < seq_len, other=0.0
    )
    s = tl.dot(q, tl.trans(k)) * qk_scale
    if MASKED:
        valid = k_idx[None, :] < seq_len
        if CAUSAL:
            valid = valid & (k_idx[None, :] <= q_idx[:, None])
        s = tl.where(valid, s, -float("inf"))
    m_new = tl.maximum(m_i, tl.max(s, axis=1))
    p = tl.exp2(s - m_new[:, None])
    alpha = tl.exp2(m_i - m_new)
    l_i = l_i * alpha + tl.sum(p, axis=1)
    acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
    return acc, l_i, m_new


@triton.jit
def attn_fwd_kernel(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,
    s_z,
    s_h,
    s_n,
    H,
    seq_len,
    qk_scale,
    CAUSAL: tl.constexpr,
    D: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    z = tl.program_id(1) // H
    h = tl.program_id(1) % H
    off = z.to(tl.int64) * s_z + h.to(tl.int64) * s_h
    q_idx = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(
        q_ptr + off + q_idx[:, None] * s_n + offs_d[None, :], mask=q_idx[:, None] < seq_len, other=0.0
    )
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    m_i = tl.full([BLOCK_M], -float("inf"), dtype=tl.float32)
    if CAUSAL:
        band_lo = pid_m * BLOCK_M
        band_hi = tl.minimum((pid_m + 1) * BLOCK_M, seq_len)
    else:
        band_lo = (seq_len // BLOCK_N) * BLOCK_N
        band_hi = seq_len
    # 1) the masked band first (diagonal / tail) ...
    for start_n in range(band_lo, band_hi, BLOCK_N):
        acc, l_i, m_i = _step(
            acc,
            l_i,
            m_i,
            q,
            k_ptr + off,
            v_ptr + off,
            s_n,
            q_idx,
            offs_n,
            offs_d,
            start_n,
            seq_len,
            qk_scale,
            True,
            CAUSAL,
        )
    # 2) ... then every whole block before it, no mask
    for start_n in range(0, band_lo, BLOCK_N):
        acc, l_i, m_i = _step(
            acc,
            l_i,
            m_i,
            q,
            k_ptr + off,
            v_ptr + off,
            s_n,
            q_idx,
            offs_n,
            offs_d,
            start_n,
            seq_len,
            qk_scale,
            False,
            CAUSAL,
        )
    out = acc * (1.0 / l_i)[:, None]
    tl.store(
        o_ptr + off + q_idx[:, None] * s_n + offs_d[None, :],
        out.to(o_ptr.dtype.element_ty),
        mask=q_idx[:, None] < seq_len,
    )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or q.shape != k.shape or q.shape != v.shape:
        raise ValueError("q, k and v must be [B, H, S, D] of one shape")
    if q.dtype not in (torch.float16, torch.bfloat16) or not (q.dtype == k.dtype == v.dtype):
        raise TypeError("q, k, v: all float16 or all bfloat16")
    if q.shape[-1] not in (16, 32, 64, 128):
        raise ValueError("head dim must be 16, 32, 64 or 128")
    B, H, S, D = q.shape
    qk_scale = sm_scale if sm_scale is not None else LOG2E / math.sqrt(D)
    q, k, v = (t.contiguous() for t in (q, k, v))
    o = torch.empty_like(q)
    if S == 0:
        return o
    BLOCK_M, BLOCK_N = (128, 64) if q.is_cuda else (32, 16)
    attn_fwd_kernel[(triton.cdiv(S, BLOCK_M), B * H)](
        q,
        k,
        v,
        o,
        q.stride(0),
        q.stride(1),
        q.stride(2),
        H,
        S,
        qk_scale,
        CAUSAL=bool(causal),
        D=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return o
