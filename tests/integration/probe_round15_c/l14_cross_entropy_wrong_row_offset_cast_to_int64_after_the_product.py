"""Probe round 15c, 14/cross-entropy, WRONG: the learner read the int64 warning and wrote
`(row * stride_row).to(tl.int64)`: the product is taken in int32 and wraps before the cast, so the cast does
nothing. Right on every case whose rows start below 2**31; the far_rows case (rows 2**30 apart) wraps at row 2.
Right verdict: FAIL on the far-rows case, naming the row-offset line (cast before multiplying:
`row.to(tl.int64) * stride_row`)."""

import torch
import triton
import triton.language as tl


@triton.jit
def ce_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK_V: tl.constexpr):
    row = tl.program_id(0)
    row_start = logits_ptr + (row * stride_row).to(tl.int64)
    cols = tl.arange(0, BLOCK_V)
    target = tl.load(target_ptr + row)
    m = tl.full([BLOCK_V], -1e30, tl.float32)
    s = tl.zeros([BLOCK_V], tl.float32)
    picked = tl.zeros([BLOCK_V], tl.float32)
    for start in range(0, V, BLOCK_V):
        mask = start + cols < V
        x = tl.load(row_start + start + cols, mask=mask, other=-1e30).to(tl.float32)
        x = tl.where(mask, x, -1e30)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
        picked += tl.where(start + cols == target, x, 0.0)
    m_row = tl.max(m, 0)
    lse = m_row + tl.log(tl.sum(s * tl.exp(m - m_row), 0))
    tl.store(loss_ptr + row, lse - tl.sum(picked, 0))


def _check(logits, target):
    if logits.dim() != 2:
        raise ValueError(f"logits must be 2D [M, V], got shape {tuple(logits.shape)}")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(
            f"target must hold one class id per row: {tuple(target.shape)} for {logits.shape[0]} rows"
        )
    if target.dtype.is_floating_point or target.dtype.is_complex or target.dtype == torch.bool:
        raise TypeError(f"target must hold integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError(f"logits on {logits.device}, target on {target.device}")


def cross_entropy(logits, target):
    _check(logits, target)
    M, V = logits.shape
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    target = target.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    BLOCK_V = min(triton.next_power_of_2(V), 2048)
    ce_kernel[(M,)](logits, target, loss, V, logits.stride(0), BLOCK_V=BLOCK_V)
    return loss
