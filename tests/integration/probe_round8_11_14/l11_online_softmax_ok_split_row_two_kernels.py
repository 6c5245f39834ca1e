"""Learner, in the style of split-K "flash-decoding": a long row is cut into SPLITS slices handled by different
programs (grid (M, SPLITS)); kernel 1 reduces each slice to its own (max, sum of exp2(x - max)) pair in base 2 and
writes it to a small fp32 buffer [M, SPLITS]; kernel 2 (same grid) reads the row's SPLITS pairs, merges them
(m = max of the maxes, l = sum of l_j * exp2(m_j - m)) and normalises its own slice. Slices that hold no column
(SPLITS > number of chunks) write m = -inf, l = 0 and are skipped by the merge (exp2(-inf - m) = 0). Each program
still streams its slice in BLOCK_SIZE chunks with the rescale, so the BLOCK_SIZE=64 variant is honoured.

Right verdict: PASS (every case, every dtype).
"""

import torch
import triton
import triton.language as tl

LOG2_E = tl.constexpr(1.4426950408889634)


@triton.jit
def slice_stats_kernel(
    x_ptr,
    m_ptr,
    l_ptr,
    stride_row,
    stride_col,
    n_cols,
    cols_per_split,
    SPLITS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    split = tl.program_id(1)
    lo = split * cols_per_split
    hi = tl.minimum(lo + cols_per_split, n_cols)
    cols = tl.arange(0, BLOCK_SIZE)
    m = tl.full([], float("-inf"), tl.float32)
    l = tl.zeros([], tl.float32)
    for start in range(lo, hi, BLOCK_SIZE):
        mask = start + cols < hi
        x = tl.load(x_ptr + row * stride_row + (start + cols) * stride_col, mask=mask, other=float("-inf"))
        x = x.to(tl.float32) * LOG2_E
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = l * tl.exp2(m - m_new) + tl.sum(tl.exp2(x - m_new), axis=0)
        m = m_new
    tl.store(m_ptr + row * SPLITS + split, m)
    tl.store(l_ptr + row * SPLITS + split, l)


@triton.jit
def slice_normalise_kernel(
    x_ptr,
    out_ptr,
    m_ptr,
    l_ptr,
    stride_row,
    stride_col,
    out_stride,
    n_cols,
    cols_per_split,
    SPLITS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0).to(tl.int64)
    split = tl.program_id(1)
    parts = tl.arange(0, SPLITS)
    ms = tl.load(m_ptr + row * SPLITS + parts)
    ls = tl.load(l_ptr + row * SPLITS + parts)
    m = tl.max(ms, axis=0)
    l = tl.sum(tl.where(ls > 0, ls * tl.exp2(ms - m), 0.0), axis=0)
    lo = split * cols_per_split
    hi = tl.minimum(lo + cols_per_split, n_cols)
    cols = tl.arange(0, BLOCK_SIZE)
    for start in range(lo, hi, BLOCK_SIZE):
        mask = start + cols < hi
        x = tl.load(x_ptr + row * stride_row + (start + cols) * stride_col, mask=mask, other=float("-inf"))
        p = tl.exp2(x.to(tl.float32) * LOG2_E - m) / l
        tl.store(out_ptr + row * out_stride + start + cols, p.to(out_ptr.dtype.element_ty), mask=mask)


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
    SPLITS = 4
    cols_per_split = triton.cdiv(triton.cdiv(N, SPLITS), BLOCK_SIZE) * BLOCK_SIZE  # whole chunks per slice
    m_buf = torch.empty((M, SPLITS), device=x.device, dtype=torch.float32)
    l_buf = torch.empty((M, SPLITS), device=x.device, dtype=torch.float32)
    grid = (M, SPLITS)
    slice_stats_kernel[grid](
        x, m_buf, l_buf, x.stride(0), x.stride(1), N, cols_per_split, SPLITS=SPLITS, BLOCK_SIZE=BLOCK_SIZE
    )
    slice_normalise_kernel[grid](
        x,
        out,
        m_buf,
        l_buf,
        x.stride(0),
        x.stride(1),
        out.stride(0),
        N,
        cols_per_split,
        SPLITS=SPLITS,
        BLOCK_SIZE=BLOCK_SIZE,
    )
    return out
