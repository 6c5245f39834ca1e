"""Learner, copying Liger-Kernel's fused cross-entropy whole: after the online softmax, a second pass over the row
stores the gradient softmax(x) - onehot(y) over the logits (Liger computes the backward inside the forward, in place,
to save the [BT, V] gradient buffer). The loss it returns is right; the caller's logits now hold gradients. This
exercise is the forward only: nothing asked for the gradient, and the logits are an input.

Right verdict: FAIL: the input logits modified (input-modified, naming logits), whatever the loss values.
"""

import torch
import triton
import triton.language as tl

MAX_FUSED_SIZE = 65536 // 2


@triton.jit
def liger_cross_entropy_kernel(
    X_ptr,
    X_stride,
    Y_ptr,
    Y_stride,
    loss_ptr,
    loss_stride,
    n_cols,
    n_non_ignore,
    ignore_index,
    label_smoothing: tl.constexpr,
    reduction: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    program_id = tl.program_id(0).to(tl.int64)

    Y_ptr += program_id * Y_stride
    y = tl.load(Y_ptr)

    X_ptr += program_id * X_stride

    if y == ignore_index:
        tl.store(loss_ptr + program_id * loss_stride, 0.0)
        return

    loss_ptr += program_id * loss_stride

    # Online softmax: the max m and the sum d of exp(x - m), one scalar each
    m = float("-inf")
    d = 0.0
    ori_X_y = tl.load(X_ptr + y).cast(tl.float32)

    scaled_x_sum = 0.0
    eps = label_smoothing / n_cols

    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        block_max = tl.max(X_block)
        if label_smoothing > 0:
            scaled_x_sum += tl.sum(tl.where(X_offsets < n_cols, -eps * X_block, 0.0))
        m_new = tl.maximum(m, block_max)
        d = d * tl.exp(m - m_new) + tl.sum(tl.exp(X_block - m_new))
        m = m_new

    # Liger: the gradient dx = softmax(x) - onehot(y) (label smoothing folded in), stored in place over X
    for i in range(0, n_cols, BLOCK_SIZE):
        X_offsets = i + tl.arange(0, BLOCK_SIZE)
        X_block = tl.load(X_ptr + X_offsets, mask=X_offsets < n_cols, other=float("-inf")).cast(tl.float32)
        X_block = tl.exp(X_block - m) / d - eps
        X_block = tl.where(X_offsets != y, X_block, X_block - (1 - label_smoothing))
        if reduction == "mean":
            X_block = X_block / n_non_ignore
        tl.store(X_ptr + X_offsets, X_block, mask=X_offsets < n_cols)

    lse = m + tl.log(d)
    loss = lse - ori_X_y
    if label_smoothing > 0:
        smooth_loss = scaled_x_sum + label_smoothing * lse
        loss = loss * (1 - label_smoothing) + smooth_loss
    if reduction == "mean":
        loss = loss / n_non_ignore
    tl.store(loss_ptr, loss)


def cross_entropy(logits, target, ignore_index=-100, label_smoothing=0.0, reduction="none"):
    if logits.dim() != 2:
        raise ValueError(f"logits must be 2D [BT, V], got {logits.dim()}D")
    if target.dim() != 1 or target.shape[0] != logits.shape[0]:
        raise ValueError(f"target must be [{logits.shape[0]}], got {tuple(target.shape)}")
    if target.dtype not in (torch.int32, torch.int64):
        raise TypeError(f"target must hold integer class ids, got {target.dtype}")
    if logits.device != target.device:
        raise ValueError(f"logits on {logits.device}, target on {target.device}")
    assert reduction in ("none", "mean", "sum"), reduction
    BT, V = logits.shape
    BLOCK_SIZE = min(MAX_FUSED_SIZE, triton.next_power_of_2(V))
    if logits.stride(-1) != 1:
        logits = logits.contiguous()
    target = target.contiguous()
    loss_1d = torch.zeros(BT, dtype=torch.float32, device=logits.device)
    if BT == 0:
        return loss_1d
    n_non_ignore = (target != ignore_index).sum().item()
    liger_cross_entropy_kernel[(BT,)](
        logits,
        logits.stride(-2),
        target,
        target.stride(-1),
        loss_1d,
        loss_1d.stride(-1),
        V,
        n_non_ignore,
        ignore_index,
        label_smoothing=label_smoothing,
        reduction=reduction,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=32,
    )
    if reduction == "none":
        return loss_1d
    return loss_1d.sum()
