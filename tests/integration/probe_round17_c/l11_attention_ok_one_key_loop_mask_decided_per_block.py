"""Probe round 17, part c — 11/attention — OK. One key loop instead of the unmasked and masked ranges: each key
block decides at run time (`if start_n + BLOCK_N > mask_from:`) whether it needs the mask — the blocks reaching the
causal diagonal (mask_from = the block's first query) or the sequence end (mask_from = the last whole key block);
causal still stops at the block's last query. K and V loads are always masked by the sequence end.
"""

import math

import torch
import triton
import triton.language as tl

LOG2_E = 1.4426950408889634  # exp(t) == exp2(t * LOG2_E)


@triton.jit
def _attend_to_keys(
    acc,
    l_i,
    m_i,
    q,  # the running state and this program's query block
    k_ptrs,
    v_ptrs,  # [HEAD_DIM, BLOCK_N] / [BLOCK_N, HEAD_DIM] pointer tiles at key 0 of this (batch, head)
    stride_kn,
    stride_vn,
    offs_m,
    offs_n,
    hi,
    seq_len,  # keys [0, hi) are visited
    mask_from,  # the first key block that needs a mask starts at or after this key
    qk_scale,
    CAUSAL: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    for start_n in range(0, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        cols = start_n + offs_n
        k = tl.load(k_ptrs + start_n * stride_kn, mask=cols[None, :] < seq_len, other=0.0)
        v = tl.load(v_ptrs + start_n * stride_vn, mask=cols[:, None] < seq_len, other=0.0)
        s = tl.dot(q, k) * qk_scale
        # one loop for every key block: only the blocks that reach the diagonal or the sequence end pay for a mask
        if start_n + BLOCK_N > mask_from:
            keep = cols[None, :] < seq_len
            if CAUSAL:
                keep = keep & (offs_m[:, None] >= cols[None, :])
            s = tl.where(keep, s, -float("inf"))
        m_new = tl.maximum(m_i, tl.max(s, axis=1))
        p = tl.exp2(s - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, axis=1)
        acc = tl.dot(p.to(v.dtype), v, acc * alpha[:, None])
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def attention_kernel(
    q_ptr,
    k_ptr,
    v_ptr,
    o_ptr,  # [batch, heads, seq, HEAD_DIM] each; the last dimension is contiguous
    stride_qz,
    stride_qh,
    stride_qm,  # strides of q over batch, head, seq (elements)
    stride_kz,
    stride_kh,
    stride_kn,
    stride_vz,
    stride_vh,
    stride_vn,
    stride_oz,
    stride_oh,
    stride_om,
    n_heads,  # heads per batch element: program_id(1) = batch * n_heads + head
    seq_len,  # tokens, any length (not necessarily a block multiple)
    qk_scale,  # softmax scale * log2(e)
    CAUSAL: tl.constexpr,  # mask keys after the query (is_causal=True in SDPA)
    HEAD_DIM: tl.constexpr,  # d: 16, 32, 64 or 128
    BLOCK_M: tl.constexpr,  # query rows per program
    BLOCK_N: tl.constexpr,  # keys per step; BLOCK_M must be a multiple of BLOCK_N
):
    start_m = tl.program_id(0)
    bh = tl.program_id(1)
    batch = bh // n_heads
    head = bh % n_heads
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
    k_ptrs = k_ptr + offs_n[None, :] * stride_kn + offs_d[:, None]  # Kᵀ tile: [HEAD_DIM, BLOCK_N]
    v_ptrs = v_ptr + offs_n[:, None] * stride_vn + offs_d[None, :]  # V tile: [BLOCK_N, HEAD_DIM]

    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")  # running max per query row (base-2 units)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)  # running sum of exp2(s - m_i)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)  # running sum of exp2(s - m_i) * v

    # Key blocks ending at or before mask_from are visible to every query of this block and exist: no mask.
    # Causal: keys after this block's last query are never visited (hi).
    if CAUSAL:
        mask_from = start_m * BLOCK_M
        hi = tl.minimum((start_m + 1) * BLOCK_M, seq_len)
    else:
        mask_from = (seq_len // BLOCK_N) * BLOCK_N
        hi = seq_len
    acc, l_i, m_i = _attend_to_keys(
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
        hi,
        seq_len,
        mask_from,
        qk_scale,
        CAUSAL,
        BLOCK_N,
    )

    # Every real query row saw at least one key (itself, when causal), so l_i >= 1. Padding rows (offs_m >= seq)
    # may hold 0/0; they are masked out of the store.
    o = acc / l_i[:, None]
    o_ptrs = o_ptr + offs_m[:, None] * stride_om + offs_d[None, :]
    tl.store(o_ptrs, o.to(o_ptr.dtype.element_ty), mask=offs_m[:, None] < seq_len)


def _launch_config(head_dim: int, on_gpu: bool) -> dict:
    """Tile sizes. Hopper: 128 queries x 128 keys per step with 8 warps for d = 128 (64 keys for smaller d), three
    stages of K/V prefetch. The interpreter runs every program in Python, so smaller tiles keep it quick."""
    if not on_gpu:
        return {"BLOCK_M": 32, "BLOCK_N": 16, "num_warps": 4, "num_stages": 1}
    if head_dim == 128:
        return {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 8, "num_stages": 3}
    return {"BLOCK_M": 128, "BLOCK_N": 64, "num_warps": 4, "num_stages": 3}


def attention(q, k, v, causal=False, sm_scale=None):
    """softmax(q kᵀ · sm_scale [+ causal mask]) v for q, k, v of shape [batch, heads, seq, d], like
    torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=sm_scale)."""
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
    # The kernel assumes unit stride along d (one contiguous row per token): make it so if a view is not.
    q, k, v = (t if t.stride(-1) == 1 else t.contiguous() for t in (q, k, v))
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    config = _launch_config(head_dim, q.device.type == "cuda")
    if q.device.type == "cuda":  # each stage holds a K and a V tile; Q stays: 128 KB at d = 128, 3 stages
        limit = torch.cuda.get_device_properties(q.device).shared_memory_per_block_optin
        per_stage = 2 * config["BLOCK_N"] * head_dim * q.element_size()
        fits = (limit - 2048 - config["BLOCK_M"] * head_dim * q.element_size()) // per_stage
        config["num_stages"] = max(1, min(config["num_stages"], fits))  # 99 KB GeForce cards: 2 at d = 128
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
