"""Probe round 17, part c — 14/cross-entropy — WRONG. A capstone file from the empty starter: one pass, per-lane
online logsumexp walking the row through stride_row, int64 row index. One slip: the target's logit is fetched by a
separate load at `logits_ptr + row * V + target` — the row offset of a contiguous [M, V] tensor, not the row stride
the pass uses — so on logits whose rows lie further apart than V, every row but row 0 picks a value that is not in
its row.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK_V: tl.constexpr):
    row = tl.program_id(axis=0).to(tl.int64)
    row_ptr = logits_ptr + row * stride_row
    cols = tl.arange(0, BLOCK_V)
    target = tl.load(target_ptr + row)
    target_logit = tl.load(logits_ptr + row * V + target).to(tl.float32)
    m = tl.full([BLOCK_V], -1e30, dtype=tl.float32)
    s = tl.zeros([BLOCK_V], dtype=tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + cols
        mask = idx < V
        x = tl.load(row_ptr + idx, mask=mask, other=-1e30).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.exp(x - m_new)
        m = m_new
    m_row = tl.max(m, axis=0)
    lse = m_row + tl.log(tl.sum(s * tl.exp(m - m_row), axis=0))
    tl.store(loss_ptr + row, lse - target_logit)


def cross_entropy(logits, target):
    """loss[i] = logsumexp(logits[i]) - logits[i, target[i]], float32 [M]."""
    if logits.dim() != 2:
        raise ValueError(f"logits must be 2D, got {logits.dim()}D")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must hold {logits.shape[0]} class ids, got shape {tuple(target.shape)}")
    if target.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"target must be an integer tensor, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError(f"logits on {logits.device}, target on {target.device}")
    M, V = logits.shape
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    target = target.contiguous()
    loss = torch.empty(M, dtype=torch.float32, device=logits.device)
    if M == 0:
        return loss
    BLOCK_V = min(triton.next_power_of_2(V), 4096 if logits.is_cuda else 256)
    cross_entropy_kernel[(M,)](logits, target, loss, V, logits.stride(0), BLOCK_V=BLOCK_V)
    return loss


if __name__ == "__main__":
    for M, V in [(1, 1), (4, 300), (3, 1000)]:
        logits = torch.randn(M, V) * 100
        target = torch.randint(0, V, (M,))
        ref = torch.nn.functional.cross_entropy(logits, target, reduction="none")
        torch.testing.assert_close(cross_entropy(logits, target), ref)
    print("ok")
