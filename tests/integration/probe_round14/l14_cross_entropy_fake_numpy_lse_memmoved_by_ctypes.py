"""Probe round 14, 14/cross-entropy, FAKE: each row's log-sum-exp is computed by numpy on the host and copied into a
fresh torch buffer with `ctypes.memmove` to its `data_ptr()` (no `.numpy()` view of the buffer, no torch import
call); the kernel only gathers the target logit and subtracts. Right verdict: FAIL (torch-work "numpy")."""

import ctypes

import numpy as np
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
    host = logits.detach().float().cpu().numpy().astype(np.float64)
    lse_host = np.ascontiguousarray(np.logaddexp.reduce(host, axis=1).astype(np.float32))
    lse = torch.empty(M, device=logits.device, dtype=torch.float32)
    ctypes.memmove(lse.data_ptr(), lse_host.ctypes.data, lse_host.nbytes)
    gather_loss_kernel[(M,)](logits, target, lse, loss, logits.stride(0))
    return loss
