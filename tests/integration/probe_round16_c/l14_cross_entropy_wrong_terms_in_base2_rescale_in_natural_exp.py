"""Cross-entropy, one pass, per-lane online logsumexp in base 2 (x scaled by log2(e), exp2 for the terms, lse
converted back with ln 2); the rescale of the old sum uses tl.exp instead of tl.exp2.
"""

import torch
import triton
import triton.language as tl

LOG2_E = tl.constexpr(1.4426950408889634)
LN_2 = tl.constexpr(0.6931471805599453)


@triton.jit
def cross_entropy_kernel(
    logits_ptr,  # *logits, shape [M, V]
    target_ptr,  # *target, int64 class ids, shape [M]
    loss_ptr,  # *loss, fp32, shape [M], written
    V,  # vocabulary size
    stride_row,  # logits' row stride (elements)
    BLOCK_V: tl.constexpr,  # logits per step along the row
):
    row = tl.program_id(axis=0).to(tl.int64)  # row * stride can pass 2**31 for 128k vocabularies
    base = logits_ptr + row * stride_row
    cols = tl.arange(0, BLOCK_V)
    m = tl.full([BLOCK_V], -1e30, dtype=tl.float32)  # finite sentinel: exp(sentinel - m) is 0, never NaN
    s = tl.zeros([BLOCK_V], dtype=tl.float32)
    picked = tl.zeros([BLOCK_V], dtype=tl.float32)  # the target's logit, caught as the pass goes by
    target = tl.load(target_ptr + row)
    for start in range(0, V, BLOCK_V):
        mask = start + cols < V
        x = tl.load(base + start + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.where(mask, x, -1e30)
        picked += tl.where(start + cols == target, x, 0.0)  # no second read of the row for logits[target]
        x2 = x * LOG2_E
        m_new = tl.maximum(m, x2)
        s = s * tl.exp(m - m_new) + tl.exp2(x2 - m_new)
        m = m_new
    m_row = tl.max(m, axis=0)
    lse = (m_row + tl.log2(tl.sum(s * tl.exp2(m - m_row), axis=0))) * LN_2
    tl.store(loss_ptr + row, lse - tl.sum(picked, axis=0))


def cross_entropy(logits, target):
    """Per-row cross-entropy loss (reduction='none') of logits [M, V] and int64 target [M] in [0, V); fp32 [M]."""
    if logits.dim() != 2:
        raise ValueError(f"logits must be 2D [M, V], got shape {tuple(logits.shape)}")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(
            f"target must be 1D with {logits.shape[0]} class ids, got shape {tuple(target.shape)}"
        )
    if target.dtype not in (torch.int64, torch.int32):
        raise TypeError(f"target must hold integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError("logits and target are on different devices")
    if not logits.is_floating_point():
        raise TypeError(f"logits must be floating point, got {logits.dtype}")
    M, V = logits.shape
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    target = target.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    if V == 0:
        raise ValueError("cross-entropy over an empty vocabulary is undefined")
    block = min(triton.next_power_of_2(V), 4096 if logits.is_cuda else 128)
    cross_entropy_kernel[(M,)](
        logits,
        target,
        loss,
        V,
        logits.stride(0),
        BLOCK_V=block,
        **({"num_warps": 8} if logits.is_cuda and block >= 2048 else {}),
    )
    return loss
