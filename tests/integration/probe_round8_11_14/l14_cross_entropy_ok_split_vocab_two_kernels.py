"""Learner, in the style of split-K / flash-decoding: the vocabulary of a row is cut into CHUNK-wide slices handled
by different programs, grid (M, n_chunks); kernel 1 reduces its slice to (max, sum of exp(x - max)) and, if the
target falls in its slice, writes the target's logit (else nothing), into small fp32 buffers [M, n_chunks];
kernel 2 (one program per row) merges the n_chunks pairs into the logsumexp and subtracts the target logit
gathered from the slice that holds it. Row offsets in int64 from the row stride (the far-rows view is fine);
padding lanes read as -inf and each slice has at least one real column, so no -inf - -inf.

Right verdict: PASS (every case, every dtype, the far-rows case and the random ones).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def ce_slice_kernel(
    logits_ptr, target_ptr, m_ptr, s_ptr, t_ptr, V, stride_row, n_chunks, CHUNK: tl.constexpr
):
    row = tl.program_id(0).to(tl.int64)
    chunk = tl.program_id(1)
    cols = chunk * CHUNK + tl.arange(0, CHUNK)
    mask = cols < V
    x = tl.load(logits_ptr + row * stride_row + cols, mask=mask, other=-float("inf")).to(tl.float32)
    m = tl.max(x, axis=0)
    s = tl.sum(tl.exp(x - m), axis=0)
    tl.store(m_ptr + row * n_chunks + chunk, m)
    tl.store(s_ptr + row * n_chunks + chunk, s)
    target = tl.load(target_ptr + row)
    hit = cols == target
    tl.store(t_ptr + row + tl.zeros([CHUNK], tl.int64), x, mask=hit & mask)


@triton.jit
def ce_merge_kernel(m_ptr, s_ptr, t_ptr, loss_ptr, n_chunks, BLOCK_C: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    idx = tl.arange(0, BLOCK_C)
    valid = idx < n_chunks
    ms = tl.load(m_ptr + row * n_chunks + idx, mask=valid, other=-float("inf"))
    ss = tl.load(s_ptr + row * n_chunks + idx, mask=valid, other=0.0)
    m = tl.max(ms, axis=0)
    total = tl.sum(tl.where(valid, ss * tl.exp(ms - m), 0.0), axis=0)
    lse = m + tl.log(total)
    tl.store(loss_ptr + row, lse - tl.load(t_ptr + row))


def cross_entropy(logits, target):
    if logits.dim() != 2:
        raise ValueError(f"logits must be [M, V], got {tuple(logits.shape)}")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must be [M] = [{logits.shape[0]}], got {tuple(target.shape)}")
    if target.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"target must hold integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError("logits and target are on different devices")
    M, V = logits.shape
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    target = target.contiguous()
    CHUNK = 4096 if logits.is_cuda else 256
    CHUNK = min(CHUNK, triton.next_power_of_2(V))
    n_chunks = triton.cdiv(V, CHUNK)
    m_buf = torch.empty((M, n_chunks), device=logits.device, dtype=torch.float32)
    s_buf = torch.empty((M, n_chunks), device=logits.device, dtype=torch.float32)
    t_buf = torch.empty((M,), device=logits.device, dtype=torch.float32)
    ce_slice_kernel[(M, n_chunks)](
        logits, target, m_buf, s_buf, t_buf, V, logits.stride(0), n_chunks, CHUNK=CHUNK
    )
    ce_merge_kernel[(M,)](
        m_buf, s_buf, t_buf, loss, n_chunks, BLOCK_C=max(16, triton.next_power_of_2(n_chunks))
    )
    return loss
