"""Learner: the one-pass online cross-entropy of the hints (per-lane running max and sum, -1e30 sentinels, the target
logit picked as the pass goes by, int64 row offsets, rows stepped by logits.stride(0)). The wrapper also checks the
class ids with torch on the integer target (`target.min() < 0 or target.max() >= V` raises), and takes a
`reduction="none"` keyword: with reduction="mean" it returns `loss.mean()` of the kernel's per-row losses (the lab
calls it with the default, reduction='none').

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, stride_row, V, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    row_ptr = logits_ptr + row * stride_row
    target = tl.load(target_ptr + row)
    cols = tl.arange(0, BLOCK_V)
    m = tl.full([BLOCK_V], -1e30, tl.float32)
    s = tl.zeros([BLOCK_V], tl.float32)
    picked = tl.zeros([BLOCK_V], tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + cols
        mask = idx < V
        x = tl.load(row_ptr + idx, mask=mask, other=-1e30).to(tl.float32)
        x = tl.where(mask, x, -1e30)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.where(mask, tl.exp(x - m_new), 0.0)
        m = m_new
        picked += tl.where(idx == target, x, 0.0)
    m_row = tl.max(m, 0)
    lse = m_row + tl.log(tl.sum(s * tl.exp(m - m_row), 0))
    tl.store(loss_ptr + row, lse - tl.sum(picked, 0))


def cross_entropy(logits, target, reduction="none"):
    if logits.dim() != 2:
        raise ValueError(f"logits must be [M, V], got {tuple(logits.shape)}")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must hold {logits.shape[0]} class ids, got {tuple(target.shape)}")
    if target.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"target must be an integer tensor, got {target.dtype}")
    if target.device != logits.device:
        raise ValueError("logits and target must be on one device")
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(f"unknown reduction {reduction!r}")
    M, V = logits.shape
    if M and (int(target.min()) < 0 or int(target.max()) >= V):
        raise ValueError(f"class ids must lie in [0, {V})")
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M:
        BLOCK_V = min(triton.next_power_of_2(max(V, 1)), 1024)
        cross_entropy_kernel[(M,)](logits, target, loss, logits.stride(0), V, BLOCK_V=BLOCK_V)
    if reduction == "mean":
        return loss.mean()
    if reduction == "sum":
        return loss.sum()
    return loss
