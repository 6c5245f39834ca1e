# WRONG: the loss is log(sum) - x_t; the row max m is never added back (lse = m + log(sum)). Kernels are 1D; only the docstring quotes a torch reference with a 2D index. Right verdict: FAIL, cause the missing + m (line 23), not a reduction without axis.
"""Cross-entropy, two passes over each row: reference loss = torch.logsumexp(logits, 1) - logits.gather(1, target[:, None]).squeeze(1)."""

import torch
import triton
import triton.language as tl


@triton.jit
def ce_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    base = logits_ptr + row * stride_row
    cols = tl.arange(0, BLOCK_V)
    m = -float("inf")
    for start in range(0, V, BLOCK_V):
        x = tl.load(base + start + cols, mask=start + cols < V, other=-float("inf")).to(tl.float32)
        m = tl.maximum(m, tl.max(x))
    s = 0.0
    for start in range(0, V, BLOCK_V):
        x = tl.load(base + start + cols, mask=start + cols < V, other=-float("inf")).to(tl.float32)
        s += tl.sum(tl.exp(x - m))
    t = tl.load(target_ptr + row)
    x_t = tl.load(base + t).to(tl.float32)
    loss = tl.log(s) - x_t
    tl.store(loss_ptr + row, loss)


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
    logits = logits if logits.stride(1) == 1 else logits.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    ce_kernel[(M,)](logits, target, loss, V, logits.stride(0), BLOCK_V=128)
    return loss
