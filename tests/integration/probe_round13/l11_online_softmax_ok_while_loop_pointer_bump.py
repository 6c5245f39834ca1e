"""Probe round 13, 11/online-softmax, CORRECT: both passes are `while` loops that bump the row pointers by
BLOCK_SIZE * stride each step and count the columns left (no `range`, no start offset); state kept as 0-d
scalars in natural-exp units. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(out_ptr, x_ptr, n_cols, stride_xm, stride_xn, stride_om, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    p = x_ptr + row * stride_xm
    left = n_cols
    m = -float("inf")
    s = 0.0
    while left > 0:
        x = tl.load(p + cols * stride_xn, mask=cols < left, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s * tl.exp(m - m_new) + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
        p += BLOCK_SIZE * stride_xn
        left -= BLOCK_SIZE
    p = x_ptr + row * stride_xm
    q = out_ptr + row * stride_om
    left = n_cols
    while left > 0:
        x = tl.load(p + cols * stride_xn, mask=cols < left, other=-float("inf")).to(tl.float32)
        tl.store(q + cols, (tl.exp(x - m) / s).to(out_ptr.dtype.element_ty), mask=cols < left)
        p += BLOCK_SIZE * stride_xn
        q += BLOCK_SIZE
        left -= BLOCK_SIZE


def online_softmax(x: torch.Tensor, BLOCK_SIZE: int | None = None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"online_softmax expects a 2D tensor, got {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"online_softmax needs floating point, got {x.dtype}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    if BLOCK_SIZE is None:
        BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 1024)
    online_softmax_kernel[(n_rows,)](
        out, x, n_cols, x.stride(0), x.stride(1), out.stride(0), BLOCK_SIZE=BLOCK_SIZE
    )
    return out
