"""Learner: allocates the loss in the logits' dtype (fp16/bf16 logits give a 16-bit loss)."""

import torch
import triton
import triton.language as tl


@triton.jit
def cross_entropy_kernel(logits_ptr, target_ptr, loss_ptr, V, stride_row, BLOCK_V: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)  # row * V passes 2**31 at 128k vocabularies
    row_ptr = logits_ptr + row * stride_row
    target = tl.load(target_ptr + row)
    cols = tl.arange(0, BLOCK_V)
    m = tl.full([BLOCK_V], -1e30, tl.float32)  # running max per lane (finite: -inf - -inf is NaN)
    s = tl.zeros([BLOCK_V], dtype=tl.float32)  # running sum of exp(x - m) per lane
    hit = tl.zeros([BLOCK_V], dtype=tl.float32)  # the target's logit, caught on the way
    for start in range(0, V, BLOCK_V):
        idx = start + cols
        valid = idx < V
        x = tl.load(row_ptr + idx, mask=valid, other=-1e30).to(tl.float32)
        m_new = tl.maximum(m, x)
        s = s * tl.exp(m - m_new) + tl.where(valid, tl.exp(x - m_new), 0.0)
        m = m_new
        hit += tl.where(idx == target, x, 0.0)
    m_row = tl.max(m, axis=0)
    lse = m_row + tl.log(tl.sum(s * tl.exp(m - m_row), axis=0))
    tl.store(loss_ptr + row, lse - tl.sum(hit, axis=0))


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError(f"logits must be 2D [M, V], got {logits.dim()}D")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must be [M] = [{logits.shape[0]}], got {tuple(target.shape)}")
    if target.dtype not in (torch.int64, torch.int32, torch.int16, torch.uint8, torch.int8):
        raise TypeError(f"target must hold integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError(f"logits on {logits.device}, target on {target.device}")
    M, V = logits.shape
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    loss = torch.empty(M, dtype=logits.dtype, device=logits.device)
    if M == 0:
        return loss
    BLOCK_V = min(triton.next_power_of_2(V), 1024)
    cross_entropy_kernel[(M,)](logits, target, loss, V, logits.stride(0), BLOCK_V=BLOCK_V)
    return loss


if __name__ == "__main__":
    import torch.nn.functional as F

    for M, V in [(1, 1), (4, 300), (3, 5001)]:
        for scale in (4.0, 100.0):
            x = torch.randn(M, V) * scale
            t = torch.randint(0, V, (M,))
            torch.testing.assert_close(cross_entropy(x, t), F.cross_entropy(x, t, reduction="none"))
    print("ok")
