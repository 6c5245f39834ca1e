"""Learner (a shortcut that fakes the exercise): the logsumexp of every row is computed in plain Python from
`logits.float().tolist()` (max, then math.log of a sum of math.exp) and sent back with `torch.tensor(lse,
dtype=torch.float32, device=logits.device)`; the kernel only gathers the target's logit and stores lse[row] - logit.

Right verdict: FAIL — the vocabulary reduction ran outside the kernel (torch-work, as its numpy twin).
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def gather_loss_kernel(logits_ptr, target_ptr, lse_ptr, loss_ptr, stride_row):
    row = tl.program_id(0).to(tl.int64)
    t = tl.load(target_ptr + row)
    x_t = tl.load(logits_ptr + row * stride_row + t).to(tl.float32)
    tl.store(loss_ptr + row, tl.load(lse_ptr + row) - x_t)


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError("logits must be [M, V]")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError("target must hold one class id per row")
    if target.dtype not in (torch.int32, torch.int64):
        raise TypeError("target must be an integer tensor")
    if target.device != logits.device:
        raise ValueError("logits and target must be on one device")
    M, V = logits.shape
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    lse = []
    for values in logits.float().tolist():
        top = max(values)
        lse.append(top + math.log(sum(math.exp(v - top) for v in values)))
    lse = torch.tensor(lse, dtype=torch.float32, device=logits.device)
    gather_loss_kernel[(M,)](logits, target, lse, loss, logits.stride(0))
    return loss
