"""Learner, copying the official tutorial's tensor-descriptor layout literally: q, k, v and o are seen as one
[Z * H * N_CTX, HEAD_DIM] matrix (`y_dim = Z * H * N_CTX`, `qo_offset_y = off_hz * N_CTX + start_m * BLOCK_M`). The
tutorial only runs N_CTX that are a multiple of BLOCK_M; here the last query block of a head reaches past its
N_CTX rows, and the descriptor (bounded by the whole matrix, not by the head) loads the NEXT head's queries as if
they were this head's, and its store writes those rows of O: the first rows of the next head. Keys past the end
are masked, so every head's own rows come out right; the spilled rows are overwritten by the next head's program,
which the interpreter happens to run later. On a GPU the programs of one launch run in any order (and at once):
whichever store lands last wins, so the next head's first rows are sometimes this head's garbage.

Right verdict: FAIL (two programs store the same elements of O: a cross-program write race; cases with H*B > 1
and N_CTX not a multiple of BLOCK_M), naming the O store.
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
    Z_H,
    N_CTX,
    HEAD_DIM: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    IS_CAUSAL: tl.constexpr,
):
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    y_dim = Z_H * N_CTX  # as in the tutorial: q, k, v, o seen as one [Z * H * N_CTX, HEAD_DIM] matrix
    qo_offset_y = off_hz * N_CTX + start_m * BLOCK_M  # this program's first query row in that matrix
    kv_offset_y = off_hz * N_CTX
    desc_q = tl.make_tensor_descriptor(
        Q, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM]
    )
    desc_k = tl.make_tensor_descriptor(
        K, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM]
    )
    desc_v = tl.make_tensor_descriptor(
        V, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_N, HEAD_DIM]
    )
    desc_o = tl.make_tensor_descriptor(
        O, shape=[y_dim, HEAD_DIM], strides=[HEAD_DIM, 1], block_shape=[BLOCK_M, HEAD_DIM]
    )
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.full([BLOCK_M], -1.0e30, dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    q = desc_q.load([qo_offset_y, 0])
    if IS_CAUSAL:
        hi = tl.minimum((start_m + 1) * BLOCK_M, N_CTX)
    else:
        hi = N_CTX
    for start_n in range(0, hi, BLOCK_N):
        k = desc_k.load([kv_offset_y + start_n, 0])
        qk = tl.dot(q, k.T) * qk_scale
        keep = (start_n + offs_n)[None, :] < N_CTX
        if IS_CAUSAL:
            keep = keep & (offs_m[:, None] >= (start_n + offs_n)[None, :])
        qk = tl.where(keep, qk, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.exp2(qk - m_new[:, None])
        alpha = tl.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        v = desc_v.load([kv_offset_y + start_n, 0])
        acc = acc * alpha[:, None] + tl.dot(p.to(v.dtype), v)
        m_i = m_new
    out = acc / l_i[:, None]
    desc_o.store([qo_offset_y, 0], out.to(O.dtype.element_ty))


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
        Z * H,
        N_CTX,
        HEAD_DIM=D,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        IS_CAUSAL=bool(causal),
    )
    return o
