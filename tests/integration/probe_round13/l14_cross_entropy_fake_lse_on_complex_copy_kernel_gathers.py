"""Probe round 13, 14/cross-entropy, FAKE: the log-sum-exp of each row is computed by torch on a complex128 copy of the logits
(real part kept); the kernel only gathers the target logit and subtracts. Right verdict: FAIL (torch-work)."""

import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, lse_ptr, loss_ptr, V, stride_row, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_V)
    target = tl.load(target_ptr + row)
    picked = tl.zeros([BLOCK_V], dtype=tl.float32)
    for start in range(0, V, BLOCK_V):
        mask = start + cols < V
        x = tl.load(logits_ptr + row * stride_row + start + cols, mask=mask, other=0.0).to(tl.float32)
        picked += tl.where(start + cols == target, x, 0.0)
    lse = tl.load(lse_ptr + row)
    tl.store(loss_ptr + row, lse - tl.sum(picked, axis=0))


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError("logits must be 2D")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError("target must be 1D with one id per row")
    if target.dtype not in (torch.int64, torch.int32):
        raise TypeError("target must hold integer class ids")
    if logits.device != target.device:
        raise ValueError("logits and target are on different devices")
    M, V = logits.shape
    logits = logits.contiguous()
    target = target.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    z = logits.to(torch.complex128)
    m = z.real.amax(dim=1, keepdim=True)
    lse = (m + torch.log(torch.exp(z - m).sum(dim=1, keepdim=True)).real).reshape(-1).to(torch.float32)
    block = min(triton.next_power_of_2(V), 128)
    cross_entropy_kernel[(M,)](logits, target, lse, loss, V, logits.stride(0), BLOCK_V=block)
    return loss
