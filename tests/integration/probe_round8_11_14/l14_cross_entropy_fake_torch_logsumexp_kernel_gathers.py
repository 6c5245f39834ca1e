"""Learner (a shortcut that fakes the exercise): the wrapper computes the row's logsumexp in torch,
`lse = torch.logsumexp(logits.float(), dim=1)` (the whole point of the problem: the online logsumexp over a
128k vocabulary in one pass), and launches a Triton kernel that only gathers the target's logit and stores
`lse - logits[row, target]`. The kernel really runs and really writes every loss; torch did the reduction over
the vocabulary (reading the logits once more, and a float32 copy of them), which the problem says to write as a
kernel (the lab times it against F.cross_entropy; the statement: "Write Triton kernels").

Right verdict: FAIL (or refused): the loss's logsumexp was computed by torch, not by the learner's kernel — the same
family as the torch-then-copy files the lab already fails ("partly written by torch" / "copied answer").
"""

import torch
import triton
import triton.language as tl


@triton.jit
def ce_gather_kernel(logits_ptr, target_ptr, lse_ptr, loss_ptr, stride_row):
    row = tl.program_id(0).to(tl.int64)
    target = tl.load(target_ptr + row)
    x_t = tl.load(logits_ptr + row * stride_row + target).to(tl.float32)
    tl.store(loss_ptr + row, tl.load(lse_ptr + row) - x_t)


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
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    lse = torch.logsumexp(logits.float(), dim=1)  # the reduction: torch's (fast, and stable)
    ce_gather_kernel[(M,)](logits, target.contiguous(), lse, loss, logits.stride(0))
    return loss
