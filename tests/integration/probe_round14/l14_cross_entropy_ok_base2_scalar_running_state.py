"""Probe round 14, 14/cross-entropy, CORRECT: the online log-sum-exp in base 2 with a scalar running state per
row (m and s are 0-d: the block max is taken first, then s is rescaled by exp2(m - m_new)), logits scaled by
log2(e) as they are loaded, the target logit gathered by one scalar load, lse converted back with ln(2).
Right verdict: PASS."""

import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)
LN2 = tl.constexpr(0.6931471805599453)


@triton.jit
def ce_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride_row
    cols = tl.arange(0, BLOCK_V)
    m = tl.full([], -float("inf"), tl.float32)
    s = tl.zeros([], tl.float32)
    for start in range(0, V, BLOCK_V):
        mask = start + cols < V
        z = tl.load(base + start + cols, mask=mask, other=-float("inf")).to(tl.float32) * LOG2E
        m_new = tl.maximum(m, tl.max(z, axis=0))
        s = s * tl.exp2(m - m_new) + tl.sum(tl.exp2(z - m_new), axis=0)
        m = m_new
    target = tl.load(target_ptr + row)
    x_t = tl.load(base + target).to(tl.float32)
    lse = (m + tl.log2(s)) * LN2
    tl.store(loss_ptr + row, lse - x_t)


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError("logits must be 2D [M, V]")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError("target must be 1D with one class id per row")
    if target.dtype not in (torch.int64, torch.int32):
        raise TypeError("target must hold integer class ids")
    if logits.device != target.device:
        raise ValueError("logits and target are on different devices")
    if not logits.is_floating_point():
        raise TypeError("logits must be floating point")
    M, V = logits.shape
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    target = target.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    block = min(triton.next_power_of_2(V), 4096 if logits.is_cuda else 256)
    ce_kernel[(M,)](logits, target, loss, V, logits.stride(0), BLOCK_V=block)
    return loss
