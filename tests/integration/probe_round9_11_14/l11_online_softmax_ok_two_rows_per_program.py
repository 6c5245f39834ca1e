"""Learner: ROWS = 2 rows per program, walked together as a [ROWS, BLOCK_SIZE] tile with one running (m, l) per row
(axis=1 reductions, as the attention kernel's per-query state). Rows past M are masked off entirely: their state
stays at m = -inf, and they are never stored. Base 2 with log2(e), as in the starter; pass 2 multiplies by 1/l.

Right verdict: PASS (every case, float32, float16 and bfloat16, the BLOCK_SIZE=64 variant too).
"""

import torch
import triton
import triton.language as tl

LOG2E: tl.constexpr = tl.constexpr(1.4426950408889634)


@triton.jit
def softmax_rows_kernel(
    out_ptr,
    x_ptr,
    stride_xm,
    stride_xn,
    stride_om,
    n_rows,
    n_cols,
    ROWS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_ok = rows < n_rows
    rows64 = rows.to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    m = tl.full([ROWS], float("-inf"), tl.float32)
    l = tl.zeros([ROWS], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        c = start + cols
        ok = row_ok[:, None] & (c[None, :] < n_cols)
        x = tl.load(
            x_ptr + rows64[:, None] * stride_xm + c[None, :] * stride_xn, mask=ok, other=float("-inf")
        )
        x = x.to(tl.float32) * LOG2E
        m_new = tl.maximum(m, tl.max(x, axis=1))
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)  # masked-off rows only
        l = l * tl.exp2(m - m_safe) + tl.sum(tl.exp2(x - m_safe[:, None]), axis=1)
        m = m_new
    inv_l = 1.0 / l
    for start in range(0, n_cols, BLOCK_SIZE):
        c = start + cols
        ok = row_ok[:, None] & (c[None, :] < n_cols)
        x = tl.load(
            x_ptr + rows64[:, None] * stride_xm + c[None, :] * stride_xn, mask=ok, other=float("-inf")
        )
        p = tl.exp2(x.to(tl.float32) * LOG2E - m[:, None]) * inv_l[:, None]
        tl.store(out_ptr + rows64[:, None] * stride_om + c[None, :], p.to(out_ptr.dtype.element_ty), mask=ok)


def online_softmax(x, BLOCK_SIZE=None):
    if x.dim() != 2:
        raise ValueError(f"expected a 2D tensor, got {x.dim()}D")
    if not x.is_floating_point():
        raise TypeError(f"expected a floating-point tensor, got {x.dtype}")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    if BLOCK_SIZE is None:
        BLOCK_SIZE = min(triton.next_power_of_2(N), 2048)
    ROWS = 2
    softmax_rows_kernel[(triton.cdiv(M, ROWS),)](
        out, x, x.stride(0), x.stride(1), out.stride(0), M, N, ROWS=ROWS, BLOCK_SIZE=BLOCK_SIZE
    )
    return out
