"""Learner: ROWS = 4 rows per program as a [ROWS, BLOCK_V] tile, one running (m, s) per ROW (scalar per row, like the
attention kernel's per-query state) rather than per lane; padding is -inf, and rows past M (masked off whole) keep
m = -inf and use 0 as the reference max so that no -inf - -inf appears. The target logit is picked in the pass with
`idx == target[:, None]`. int64 row offsets, rows stepped by logits.stride(0).

Right verdict: PASS (every case, the far-rows one too).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _ce_rows_kernel(
    logits_ptr, target_ptr, loss_ptr, stride_row, M, V, ROWS: tl.constexpr, BLOCK_V: tl.constexpr
):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_ok = rows < M
    rows64 = rows.to(tl.int64)
    target = tl.load(target_ptr + rows64, mask=row_ok, other=0)
    cols = tl.arange(0, BLOCK_V)
    m = tl.full([ROWS], float("-inf"), tl.float32)  # running max per row
    s = tl.zeros([ROWS], tl.float32)  # running sum of exp(x - m) per row
    picked = tl.zeros([ROWS], tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + cols
        ok = row_ok[:, None] & (idx[None, :] < V)
        x = tl.load(logits_ptr + rows64[:, None] * stride_row + idx[None, :], mask=ok, other=float("-inf"))
        x = x.to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=1))
        m_ref = tl.where(m_new == float("-inf"), 0.0, m_new)  # rows past M: everything -inf
        s = s * tl.exp(m - m_ref) + tl.sum(tl.exp(x - m_ref[:, None]), axis=1)
        m = m_new
        picked += tl.sum(tl.where(idx[None, :] == target[:, None], x, 0.0), axis=1)
    loss = m + tl.log(s) - picked
    tl.store(loss_ptr + rows64, loss, mask=row_ok)


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError(f"logits must be [M, V], got {tuple(logits.shape)}")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must have {logits.shape[0]} class ids, got {tuple(target.shape)}")
    if target.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"target must be an integer tensor, got {target.dtype}")
    if target.device != logits.device:
        raise ValueError("logits and target must be on one device")
    M, V = logits.shape
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    ROWS = 4
    BLOCK_V = min(triton.next_power_of_2(V), 2048 if logits.is_cuda else 128)
    _ce_rows_kernel[(triton.cdiv(M, ROWS),)](
        logits, target, loss, logits.stride(0), M, V, ROWS=ROWS, BLOCK_V=BLOCK_V
    )
    return loss
