"""Learner (wrong design the interpreter cannot see): no streaming. The wrapper sets BLOCK_N =
next_power_of_2(seq_len), so every query block meets ALL keys in one [BLOCK_M, BLOCK_N] tile, and the kernel does
lesson 8's plain softmax on it (row max, exp, row sum, divide) before one P @ V dot. No running max, no rescale:
the online softmax the exercise is about is never written. On the interpreter's sequences (S <= 45, one tile of
64 keys) the values are right; at the lesson's GPU sizes (S = 4096 and 4099, D = 128: a 128 x 8192 fp32 score tile
plus an 8192 x 128 V tile per program) it cannot compile into shared memory / registers.

Right verdict: FAIL — keys must stream through in BLOCK_N blocks (lesson contract loop = [S, BLOCK_N]); at least
not a plain pass on the interpreter.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def attn_one_tile(
    Q,
    K,
    V,
    O,
    s_z,
    s_h,
    s_n,
    n_heads,
    seq_len,
    sm_scale,
    CAUSAL: tl.constexpr,
    D: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = (bh // n_heads).to(tl.int64) * s_z + (bh % n_heads).to(tl.int64) * s_h
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q = tl.load(Q + base + rows[:, None] * s_n + offs_d[None, :], mask=rows[:, None] < seq_len, other=0.0)
    kt = tl.load(K + base + cols[None, :] * s_n + offs_d[:, None], mask=cols[None, :] < seq_len, other=0.0)
    v = tl.load(V + base + cols[:, None] * s_n + offs_d[None, :], mask=cols[:, None] < seq_len, other=0.0)
    s = tl.dot(q, kt) * sm_scale
    keep = cols[None, :] < seq_len
    if CAUSAL:
        keep = keep & (rows[:, None] >= cols[None, :])
    s = tl.where(keep, s, float("-inf"))
    s = s - tl.max(s, axis=1)[:, None]
    p = tl.exp(s)
    p = p / tl.sum(p, axis=1)[:, None]
    o = tl.dot(p.to(v.dtype), v)
    tl.store(
        O + base + rows[:, None] * s_n + offs_d[None, :],
        o.to(O.dtype.element_ty),
        mask=rows[:, None] < seq_len,
    )


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or k.shape != q.shape or v.shape != q.shape:
        raise ValueError("q, k, v must be [B, H, S, D] of one shape")
    if q.dtype not in (torch.float16, torch.bfloat16) or k.dtype != q.dtype or v.dtype != q.dtype:
        raise TypeError("q, k, v must be one 16-bit float dtype")
    B, H, S, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError("head dim must be 16, 32, 64 or 128")
    scale = sm_scale if sm_scale is not None else 1.0 / math.sqrt(D)
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    BLOCK_M = 64 if q.is_cuda else 16
    BLOCK_N = max(16, triton.next_power_of_2(S))  # every key in one tile
    attn_one_tile[(triton.cdiv(S, BLOCK_M), B * H)](
        q,
        k,
        v,
        o,
        q.stride(0),
        q.stride(1),
        q.stride(2),
        H,
        S,
        scale,
        CAUSAL=bool(causal),
        D=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return o
