"""Probe round 15c, 14/cross-entropy, WRONG (a race between programs): to use more programs than rows, the
learner splits each row's vocabulary over a 2D grid (row, vocabulary block). Every program raises the row's shared
max with `tl.atomic_max`, then reads it back and adds its block's sum of exp(x - max) with `tl.atomic_add`; a finish
kernel takes max + log(sum) - picked. A program reads the shared max before the other blocks of its row have
raised it: its terms are against a max that is not the row's, and nothing rescales them. One block per row is
right; on the interpreter the programs run one after another, so a block sees the max of the blocks before it (on
a GPU, whatever order they ran in).
Right verdict: FAIL on rows of several blocks; what the lab can say: the sum is taken against a max that later
blocks raise (the shared max read before every program raised it)."""

import torch
import triton
import triton.language as tl


@triton.jit
def ce_partial_kernel(
    logits_ptr, target_ptr, max_ptr, sum_ptr, picked_ptr, V, stride_row, BLOCK_V: tl.constexpr
):
    row = tl.program_id(0).to(tl.int64)
    start = tl.program_id(1) * BLOCK_V
    cols = start + tl.arange(0, BLOCK_V)
    mask = cols < V
    x = tl.load(logits_ptr + row * stride_row + cols, mask=mask, other=float("-inf")).to(tl.float32)
    tl.atomic_max(max_ptr + row, tl.max(x, axis=0))
    row_max = tl.load(max_ptr + row)
    tl.atomic_add(sum_ptr + row, tl.sum(tl.exp(x - row_max), axis=0))
    target = tl.load(target_ptr + row)
    hit = (cols == target) & mask
    tl.atomic_add(picked_ptr + row, tl.sum(tl.where(hit, x, 0.0), axis=0))


@triton.jit
def ce_finish_kernel(max_ptr, sum_ptr, picked_ptr, loss_ptr, M, BLOCK_M: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    mask = rows < M
    row_max = tl.load(max_ptr + rows, mask=mask, other=0.0)
    total = tl.load(sum_ptr + rows, mask=mask, other=1.0)
    picked = tl.load(picked_ptr + rows, mask=mask, other=0.0)
    tl.store(loss_ptr + rows, row_max + tl.log(total) - picked, mask=mask)


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
    if logits.stride(1) != 1:
        logits = logits.contiguous()
    target = target.contiguous()
    loss = torch.empty(M, device=logits.device, dtype=torch.float32)
    if M == 0:
        return loss
    row_max = torch.full((M,), float("-inf"), device=logits.device, dtype=torch.float32)
    row_sum = torch.zeros(M, device=logits.device, dtype=torch.float32)
    picked = torch.zeros(M, device=logits.device, dtype=torch.float32)
    BLOCK_V = 512
    ce_partial_kernel[(M, triton.cdiv(V, BLOCK_V))](
        logits, target, row_max, row_sum, picked, V, logits.stride(0), BLOCK_V=BLOCK_V
    )
    ce_finish_kernel[(triton.cdiv(M, 128),)](row_max, row_sum, picked, loss, M, BLOCK_M=128)
    return loss
