"""Learner (a shortcut that fakes part of the exercise): the non-causal path is a real Triton kernel (one program
per head, as in the ok file of this round), but the causal path is left to torch: `if causal: return
F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=scale)` in the wrapper, "until the mask is done".
The lesson's kernel must do both; the values of the causal cases are torch's own, so they match the reference.

Right verdict: FAIL, every causal case (and only those), with a verdict saying the output was not written by the
learner's kernel (torch computed it), never a pass.
"""

import math

import torch.nn.functional as F

import torch
import triton
import triton.language as tl


@triton.jit
def head_attention_kernel(
    Q,
    K,
    V,
    O,
    stride_z,
    stride_h,
    stride_s,  # q, k, v and o are contiguous [B, H, S, D]: one set of strides
    n_heads,
    seq_len,
    qk_scale,
    CAUSAL: tl.constexpr,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    bh = tl.program_id(0)
    base = (bh // n_heads).to(tl.int64) * stride_z + (bh % n_heads).to(tl.int64) * stride_h
    offs_d = tl.arange(0, HEAD_DIM)
    for start_m in range(0, tl.cdiv(seq_len, BLOCK_M)):
        rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
        q = tl.load(
            Q + base + rows[:, None] * stride_s + offs_d[None, :], mask=rows[:, None] < seq_len, other=0.0
        )
        m_i = tl.full([BLOCK_M], float("-inf"), tl.float32)
        l_i = tl.zeros([BLOCK_M], tl.float32)
        acc = tl.zeros([BLOCK_M, HEAD_DIM], tl.float32)
        end = seq_len
        if CAUSAL:
            end = tl.minimum((start_m + 1) * BLOCK_M, seq_len)
        for start_n in range(0, end, BLOCK_N):
            cols = start_n + tl.arange(0, BLOCK_N)
            kt = tl.load(
                K + base + cols[None, :] * stride_s + offs_d[:, None], mask=cols[None, :] < seq_len, other=0.0
            )
            s = tl.dot(q, kt) * qk_scale
            ok = cols[None, :] < seq_len
            if CAUSAL:
                ok = ok & (rows[:, None] >= cols[None, :])
            s = tl.where(ok, s, float("-inf"))
            m_new = tl.maximum(m_i, tl.max(s, 1))
            alpha = tl.exp2(m_i - m_new)
            p = tl.exp2(s - m_new[:, None])
            l_i = l_i * alpha + tl.sum(p, 1)
            v = tl.load(
                V + base + cols[:, None] * stride_s + offs_d[None, :], mask=cols[:, None] < seq_len, other=0.0
            )
            acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
            m_i = m_new
        out = acc / l_i[:, None]
        tl.store(
            O + base + rows[:, None] * stride_s + offs_d[None, :],
            out.to(O.dtype.element_ty),
            mask=rows[:, None] < seq_len,
        )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        raise ValueError(f"shapes differ: {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}")
    if q.dtype not in (torch.float16, torch.bfloat16) or len({q.dtype, k.dtype, v.dtype}) != 1:
        raise TypeError(f"need one 16-bit float dtype, got {q.dtype}, {k.dtype}, {v.dtype}")
    if len({q.device, k.device, v.device}) != 1:
        raise ValueError("q, k and v must be on one device")
    B, H, S, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError(f"head dim {D} not supported")
    scale = sm_scale if sm_scale is not None else D**-0.5
    if causal:
        # TODO: causal in the kernel; for now the fused SDPA kernel does it (same numbers, and fast)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=scale)
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    BLOCK_M, BLOCK_N = (64, 64) if q.is_cuda else (32, 16)
    head_attention_kernel[(B * H,)](
        q,
        k,
        v,
        o,
        q.stride(0),
        q.stride(1),
        q.stride(2),
        H,
        S,
        scale * math.log2(math.e),
        CAUSAL=bool(causal),
        HEAD_DIM=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return o
