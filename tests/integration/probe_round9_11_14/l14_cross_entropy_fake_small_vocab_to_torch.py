"""Learner (a shortcut that fakes part of the exercise): "the kernel is for LLaMA-sized vocabularies", so small ones
go to torch:

    if V <= 1024: return F.cross_entropy(logits.float(), target, reduction="none")

The kernel itself is right. On the interpreter's cases V = 1, 300 and 1000 are torch's; only the random hidden
case (V up to 2500) and the far-rows case may reach the kernel.

Right verdict: FAIL on every case torch computed (no kernel of the file ran / torch did the work), never a pass.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _ce_kernel(logits_ptr, target_ptr, loss_ptr, stride_row, V, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    row_ptr = logits_ptr + row * stride_row
    target = tl.load(target_ptr + row)
    cols = tl.arange(0, BLOCK_V)
    m = tl.full([BLOCK_V], -1e30, tl.float32)  # per-lane running max (finite sentinel)
    s = tl.zeros([BLOCK_V], tl.float32)  # per-lane running sum of exp(x - m)
    picked = tl.zeros([BLOCK_V], tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + cols
        mask = idx < V
        x = tl.load(row_ptr + idx, mask=mask, other=0.0).to(tl.float32)
        x = tl.where(mask, x, -1e30)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
        picked += tl.where(idx == target, x, 0.0)
    m_row = tl.max(m, 0)
    lse = m_row + tl.log(tl.sum(s * tl.exp(m - m_row), 0))
    tl.store(loss_ptr + row, lse - tl.sum(picked, 0))


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError(f"logits must be 2D [M, V], got {logits.dim()}D")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must be [M] = [{logits.shape[0]}], got {tuple(target.shape)}")
    if target.dtype not in (torch.int64, torch.int32):
        raise TypeError(f"target must hold integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError("logits and target are on different devices")
    M, V = logits.shape
    if V <= 1024:  # small vocabularies: torch's fused kernel is fine there
        return torch.nn.functional.cross_entropy(logits.float(), target, reduction="none")
    loss = torch.empty((M,), device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    BLOCK_V = min(triton.next_power_of_2(V), 4096 if logits.is_cuda else 256)
    _ce_kernel[(M,)](logits, target, loss, logits.stride(0), V, BLOCK_V=BLOCK_V)
    return loss
