"""Learner: works in base 2 for speed, as lesson 11 taught: x2 = x * log2(e), running max and sum with tl.exp2,
so at the end log2(sum) + m2 is the logsumexp in BASE-2 units, log2(Σ e^x). The learner then forgets to convert
back (× ln 2) and computes `lse = m2 + tl.log2(total)` minus the natural-unit target logit: the loss is
log2(Σ e^x) - x_t instead of ln(Σ e^x) - x_t, too large by ln(Σ e^x) · (1/ln 2 - 1) ≈ 44% of the logsumexp.
At V = 1 the logsumexp is x_0 itself, and log2 e · x_0 - x_0 is wrong there too unless x_0 = 0.

Right verdict: FAIL in every case; the first diagnosis should point at the mixed units (the loss / logsumexp off by
a factor log2(e) = 1.4427 = 1/ln 2: a base-2 logsumexp not converted back with ln 2), ideally naming the lse line.
"""

import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)  # was `LOG2E: tl.constexpr = …`, which a GPU refuses


@triton.jit
def ce_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride_row
    cols = tl.arange(0, BLOCK_V)
    target = tl.load(target_ptr + row)
    m2 = tl.full([BLOCK_V], -1e30, tl.float32)
    acc = tl.zeros([BLOCK_V], tl.float32)
    x_t = tl.zeros([BLOCK_V], tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + cols
        mask = idx < V
        x = tl.load(base + idx, mask=mask, other=0.0).to(tl.float32)
        x_t += tl.where(idx == target, x, 0.0)
        x2 = tl.where(mask, x * LOG2E, -1e30)
        new = tl.maximum(m2, x2)
        acc = acc * tl.exp2(m2 - new) + tl.exp2(x2 - new)
        m2 = new
    m_row = tl.max(m2, axis=0)
    total = tl.sum(acc * tl.exp2(m2 - m_row), axis=0)
    lse = m_row + tl.log2(total)
    tl.store(loss_ptr + row, lse - tl.sum(x_t, axis=0))


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError(f"logits must be [M, V], got {tuple(logits.shape)}")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must have {logits.shape[0]} ids, got {tuple(target.shape)}")
    if target.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"target must be integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError("logits and target are on different devices")
    M, V = logits.shape
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    BLOCK_V = min(triton.next_power_of_2(V), 4096 if logits.is_cuda else 128)
    ce_kernel[(M,)](logits, target.contiguous(), loss, V, logits.stride(0), BLOCK_V=BLOCK_V)
    return loss
