"""Learner: the target's logit caught on the way, but compared with the block's own column numbers
(`tl.where(cols == target, x, 0.0)`) instead of the row's (`start + cols`). With one block per row (V <= BLOCK_V)
that is the same thing; once the row is streamed, a target below BLOCK_V is picked once in EVERY block (the sum of
several logits), and a target at or past BLOCK_V is never picked (0). The log-sum-exp is right.

Right verdict: FAIL only on the cases whose row takes several BLOCK_V steps (V > 256
here), the diagnosis pointing at what changes from one block to the next (the column index / the picked target
logit), not at the log-sum-exp's max.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _ce_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK_V: tl.constexpr):
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
        x = tl.load(row_ptr + idx, mask=mask, other=0.0).to(tl.float32)
        x = tl.where(mask, x, -1e30)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.where(mask, tl.exp(x - m_new), 0.0)
        m = m_new
        picked += tl.where(cols == target, x, 0.0)
    m_row = tl.max(m, 0)
    lse = m_row + tl.log(tl.sum(s * tl.exp(m - m_row), 0))
    tl.store(loss_ptr + row, lse - tl.sum(picked, 0))


def cross_entropy(logits, target, BLOCK_V=None):
    if logits.dim() != 2:
        raise ValueError(f"logits must be 2D, got {logits.dim()}D")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must have {logits.shape[0]} class ids, got shape {tuple(target.shape)}")
    if target.dtype not in (torch.int8, torch.int16, torch.int32, torch.int64, torch.uint8):
        raise TypeError(f"target must be integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError("logits and target on different devices")
    M, V = logits.shape
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    if BLOCK_V is None:
        BLOCK_V = min(4096 if logits.is_cuda else 256, triton.next_power_of_2(V))
    _ce_kernel[(M,)](logits, target.contiguous(), loss, V, logits.stride(0), BLOCK_V=BLOCK_V)
    return loss
