"""Learner: factors the load into a helper and scales by log2(e) BEFORE converting to float32:
`(tl.load(...) * LOG2_E).to(tl.float32)`. A 16-bit tensor times a Python constant stays 16-bit in Triton, so
x · log2(e) is rounded to float16/bfloat16 first: at |x| ~ 100 the product (~144) carries an error up to 0.06
(float16) or 0.5 (bfloat16) in base-2 units, i.e. p off by up to 4% or 40%. Both passes use the helper, so the
result is a consistent softmax of the rounded row. float32 is exact.

Right verdict: FAIL on float16 and bfloat16 only (on the interpreter the M = 4, N = 37 cases: larger rows hold
p values small enough for the absolute tolerance); the first diagnosis should say the computation is done in the
16-bit dtype (the scale by LOG2_E before .to(tl.float32)), naming the helper's line.
"""

import torch
import triton
import triton.language as tl

LOG2_E = tl.constexpr(1.4426950408889634)


@triton.jit
def _load_base2(ptrs, mask):
    return (tl.load(ptrs, mask=mask, other=-float("inf")) * LOG2_E).to(tl.float32)


@triton.jit
def online_softmax_kernel(
    out_ptr, in_ptr, in_row_stride, in_col_stride, out_row_stride, n_cols, BLOCK_SIZE: tl.constexpr
):
    row = tl.program_id(axis=0).to(tl.int64)
    in_row = in_ptr + row * in_row_stride
    out_row = out_ptr + row * out_row_stride
    cols = tl.arange(0, BLOCK_SIZE)
    m = tl.full([], -float("inf"), tl.float32)
    l = tl.zeros([], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        mask = start + cols < n_cols
        x = _load_base2(in_row + (start + cols) * in_col_stride, mask)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp2(m - m_new) + tl.sum(tl.exp2(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK_SIZE):
        mask = start + cols < n_cols
        x = _load_base2(in_row + (start + cols) * in_col_stride, mask)
        tl.store(out_row + start + cols, (tl.exp2(x - m) / l).to(out_ptr.dtype.element_ty), mask=mask)


def online_softmax(x, BLOCK_SIZE=None):
    if x.dim() != 2:
        raise ValueError(f"online_softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"online_softmax needs a floating-point tensor, got {x.dtype}")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    if BLOCK_SIZE is None:
        BLOCK_SIZE = min(triton.next_power_of_2(N), 4096)
    online_softmax_kernel[(M,)](out, x, x.stride(0), x.stride(1), out.stride(0), N, BLOCK_SIZE=BLOCK_SIZE)
    return out
