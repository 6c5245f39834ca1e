"""Probe round 15c, 14/cross-entropy, CORRECT: the running state is the log-sum-exp itself (one 0-d value, no
separate max and sum): each block's own logsumexp is merged into it with logaddexp,
`hi + log(1 + exp(lo - hi))` (the first merge with -inf gives the block's value); the target's logit is caught
by a where-sum on the way; int64 row offsets from logits.stride(0), any column stride.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def _logaddexp(x, y):
    hi = tl.maximum(x, y)
    lo = tl.minimum(x, y)
    return hi + tl.log(1.0 + tl.exp(lo - hi))


@triton.jit
def ce_fwd_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, stride_col, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    row_ptr = logits_ptr + row * stride_row
    target = tl.load(target_ptr + row)
    cols = tl.arange(0, BLOCK_V)
    lse = tl.full([], float("-inf"), tl.float32)
    picked = tl.zeros([BLOCK_V], tl.float32)
    for start in range(0, V, BLOCK_V):
        idx = start + cols
        x = tl.load(row_ptr + idx * stride_col, mask=idx < V, other=float("-inf")).to(tl.float32)
        block_max = tl.max(x, axis=0)
        block_lse = block_max + tl.log(tl.sum(tl.exp(x - block_max), axis=0))
        lse = _logaddexp(lse, block_lse)
        picked += tl.where(idx == target, x, 0.0)
    tl.store(loss_ptr + row, lse - tl.sum(picked, axis=0))


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
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    target = target.to(torch.int64).contiguous()
    BLOCK_V = min(triton.next_power_of_2(V), 1024)
    ce_fwd_kernel[(M,)](logits, target, loss, V, logits.stride(0), logits.stride(1), BLOCK_V=BLOCK_V)
    return loss
