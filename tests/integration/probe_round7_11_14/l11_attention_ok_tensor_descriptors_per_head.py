"""Learner, in the style of the official tutorial's current version (tensor descriptors, TMA on Hopper): Q, K, V
and O through tl.make_tensor_descriptor over one (batch, head)'s own [N_CTX, HEAD_DIM] slab, so the block past the
end of the sequence is zero-filled on load and clipped on store (no masks on the memory side); K loaded as
[BLOCK_N, HEAD_DIM] rows and transposed in the dot; keys past the end masked with -inf; the running max starts at a
finite -1.0e30. An allocator is set for the descriptors (the tutorial's triton.set_allocator).

Right verdict: PASS (every case).
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def _fwd(
    Q,
    K,
    V,
    O,
    qk_scale,
    H,
    N_CTX,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    IS_CAUSAL: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1).to(tl.int64)
    head = off_hz * N_CTX * HEAD_DIM  # q, k, v, o are contiguous [Z, H, N_CTX, HEAD_DIM]
    desc_q = tl.make_tensor_descriptor(
        Q + head, shape=[N_CTX, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM]
    )
    desc_k = tl.make_tensor_descriptor(
        K + head, shape=[N_CTX, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM]
    )
    desc_v = tl.make_tensor_descriptor(
        V + head, shape=[N_CTX, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM]
    )
    desc_o = tl.make_tensor_descriptor(
        O + head, shape=[N_CTX, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM]
    )
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.full([BLOCK_M], -1.0e30, dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    q = desc_q.load([start_m * BLOCK_M, 0])
    if IS_CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    else:
        hi = N_CTX
    for start_n in range(0, hi, BLOCK_N):
        k = desc_k.load([start_n, 0])
        qk = tl.dot(q, k.T) * qk_scale
        keep = (start_n + offs_n)[None, :] < N_CTX
        if IS_CAUSAL:
            keep = keep & (offs_m[:, None] >= (start_n + offs_n)[None, :])
        qk = tl.where(keep, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = desc_v.load([start_n, 0])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    desc_o.store([start_m * BLOCK_M, 0], out.to(O.dtype.element_ty))


def _alloc(size: int, alignment: int, stream):
    return torch.empty(size, device="cuda" if torch.cuda.is_available() else "cpu", dtype=torch.int8)


def attention(q, k, v, causal=False, sm_scale=None):
    if q.dim() != 4 or q.shape != k.shape or q.shape != v.shape:
        raise ValueError(f"shapes {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}")
    if q.dtype not in (torch.float16, torch.bfloat16) or not (q.dtype == k.dtype == v.dtype):
        raise TypeError("q, k, v: one dtype, float16 or bfloat16")
    Z, H, N_CTX, D = q.shape
    if D not in (16, 32, 64, 128):
        raise ValueError(f"head dim {D}")
    if sm_scale is None:
        sm_scale = 1.0 / math.sqrt(D)
    q, k, v = q.contiguous(), k.contiguous(), v.contiguous()
    o = torch.empty_like(q)
    if o.numel() == 0:
        return o
    triton.set_allocator(_alloc)
    BLOCK_M, BLOCK_N = (128, 64) if q.is_cuda else (32, 16)
    grid = (triton.cdiv(N_CTX, BLOCK_M), Z * H)
    _fwd[grid](
        q,
        k,
        v,
        o,
        sm_scale * 1.4426950408889634,
        H,
        N_CTX,
        HEAD_DIM=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        IS_CAUSAL=bool(causal),
    )
    return o
