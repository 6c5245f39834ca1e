"""Probe round 17, part c — 11/attention — WRONG. Both TODOs filled as the hints say, with one slip: the update ends
after `acc = tl.dot(p, v, acc)` and never carries the new max (`m_i = m_new` is missing). m_i stays -inf, so alpha
= exp2(-inf - m_new) = 0 at every key block: each block throws away everything before it, and the output is the
softmax over the last key block of each range only.
"""

import math

import torch
import triton
import triton.language as tl

LOG2_E = 1.4426950408889634  # exp(t) == exp2(t * LOG2_E)


@triton.jit
def _attend_to_block_range(
    acc,
    l_i,
    m_i,
    q,  # the running state and this program's query block
    k_ptrs,
    v_ptrs,  # pointers to the first key/value rows of this (batch, head), [HEAD_DIM, BLOCK_N] / [BLOCK_N, HEAD_DIM]
    stride_kn,
    stride_vn,  # elements between consecutive keys / values
    offs_m,
    offs_n,  # query row indices of this block; 0..BLOCK_N-1
    lo,
    hi,
    seq_len,  # key range [lo, hi) to visit; keys >= seq_len do not exist
    qk_scale,  # softmax scale * log2(e)
    MASKED: tl.constexpr,  # True: apply the causal and/or sequence-end mask inside each tile
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
        s = tl.dot(q, k) * qk_scale  # [BLOCK_M, BLOCK_N] in fp32, already in base-2 units
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

    # Keys [0, full_end) are visible to every query of this block and exist: no mask needed.
    # Causal: keys before this block's first query. Otherwise: every whole key block.
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
