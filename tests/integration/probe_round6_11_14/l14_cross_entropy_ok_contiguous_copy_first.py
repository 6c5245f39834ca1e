"""Learner (correct): copies logits to contiguous memory first, then steps rows by V in int64."""

import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_m, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    row_ptr = logits_ptr + row * V
    target = tl.load(target_ptr + row)
    cols = tl.arange(0, BLOCK_V)
    m = tl.full([BLOCK_V], -1e30, tl.float32)
    s = tl.zeros([BLOCK_V], tl.float32)
    picked = tl.zeros([BLOCK_V], tl.float32)
    for start in range(0, V, BLOCK_V):
        mask = start + cols < V
        x = tl.load(row_ptr + start + cols, mask=mask, other=0.0).to(tl.float32)
        x = tl.where(mask, x, -1e30)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
        picked += tl.where(start + cols == target, x, 0.0)
    m_row = tl.max(m, 0)
    lse = m_row + tl.log(tl.sum(s * tl.exp(m - m_row), 0))
    tl.store(loss_ptr + row, lse - tl.sum(picked, 0))


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError(f"logits must be 2D, got {logits.dim()}D")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must have {logits.shape[0]} entries, got shape {tuple(target.shape)}")
    if target.dtype.is_floating_point or target.dtype == torch.bool or target.dtype.is_complex:
        raise TypeError(f"target must hold integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError("logits and target are on different devices")
    logits = logits.contiguous()
    target = target.contiguous()
    M, V = logits.shape
    loss = torch.empty((M,), dtype=torch.float32, device=logits.device)
    if M == 0:
        return loss
    BLOCK_V = min(triton.next_power_of_2(V), 1024)
    cross_entropy_kernel[(M,)](logits, target, loss, V, logits.stride(0), BLOCK_V=BLOCK_V)
    return loss
