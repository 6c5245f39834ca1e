# FAKE (by the loop contract): no key loop at all -- one BLOCK_KV = next_power_of_2(S) tile holds every key; the block is named BLOCK_KV, not BLOCK_N. Right verdict: FAIL (loop-once at the GPU's size).
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
    s_z,
    s_h,
    s_m,
    n_heads,
    seq_len,
    scale,
    CAUSAL: tl.constexpr,
    D: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_KV: tl.constexpr,
):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    base = (bh // n_heads).to(tl.int64) * s_z + (bh % n_heads).to(tl.int64) * s_h
    rows = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    keys = tl.arange(0, BLOCK_KV)
    dims = tl.arange(0, D)
    q = tl.load(q_ptr + base + rows[:, None] * s_m + dims[None, :], mask=rows[:, None] < seq_len, other=0.0)
    k = tl.load(k_ptr + base + keys[:, None] * s_m + dims[None, :], mask=keys[:, None] < seq_len, other=0.0)
    v = tl.load(v_ptr + base + keys[:, None] * s_m + dims[None, :], mask=keys[:, None] < seq_len, other=0.0)
    s = tl.dot(q, tl.trans(k)) * scale
    keep = keys[None, :] < seq_len
    if CAUSAL:
        keep = keep & (rows[:, None] >= keys[None, :])
    s = tl.where(keep, s, -float("inf"))
    p = tl.exp(s - tl.max(s, axis=1)[:, None])
    p = p / tl.sum(p, axis=1)[:, None]
    o = tl.dot(p.to(v.dtype), v)
    tl.store(
        o_ptr + base + rows[:, None] * s_m + dims[None, :],
        o.to(o_ptr.dtype.element_ty),
        mask=rows[:, None] < seq_len,
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
    scale = 1.0 / math.sqrt(D) if sm_scale is None else sm_scale
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    block_kv = max(16, triton.next_power_of_2(S))
    grid = (triton.cdiv(S, 16), B * H)
    attention_kernel[grid](
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
        BLOCK_M=16,
        BLOCK_KV=block_kv,
    )
    return o
