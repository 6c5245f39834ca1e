"""Probe round 14, 11/online-softmax, CORRECT: four rows per program as a [ROWS, BLOCK_SIZE] tile, a running max
and sum per row kept as [ROWS] vectors, natural exp (no log2 scaling), the rescale written as a multiply by
exp(m_old - m_new) placed after the chunk max, rows past M masked. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(
    out_ptr, x_ptr, M, N, stride_xm, stride_xn, stride_om, ROWS: tl.constexpr, BLOCK_SIZE: tl.constexpr
):
    rows = tl.program_id(0) * ROWS + tl.arange(0, ROWS)
    row_ok = rows < M
    x_rows = x_ptr + rows.to(tl.int64)[:, None] * stride_xm
    o_rows = out_ptr + rows.to(tl.int64)[:, None] * stride_om
    cols = tl.arange(0, BLOCK_SIZE)
    m = tl.full([ROWS], -float("inf"), tl.float32)
    s = tl.zeros([ROWS], tl.float32)
    for start in range(0, N, BLOCK_SIZE):
        c = start + cols
        mask = row_ok[:, None] & (c[None, :] < N)
        x = tl.load(x_rows + c[None, :] * stride_xn, mask=mask, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=1))
        m_safe = tl.where(m_new == -float("inf"), 0.0, m_new)  # rows past M: nothing seen, keep 0 * 0
        s = s * tl.exp(m - m_safe) + tl.sum(tl.exp(x - m_safe[:, None]), axis=1)
        m = m_new
    m_safe = tl.where(m == -float("inf"), 0.0, m)
    inv = tl.where(row_ok, 1.0 / s, 0.0)
    for start in range(0, N, BLOCK_SIZE):
        c = start + cols
        mask = row_ok[:, None] & (c[None, :] < N)
        x = tl.load(x_rows + c[None, :] * stride_xn, mask=mask, other=-float("inf")).to(tl.float32)
        p = tl.exp(x - m_safe[:, None]) * inv[:, None]
        tl.store(o_rows + c[None, :], p.to(out_ptr.dtype.element_ty), mask=mask)


def online_softmax(x, BLOCK_SIZE=None):
    if x.dim() != 2:
        raise ValueError("online_softmax expects a 2D tensor")
    if not x.is_floating_point():
        raise TypeError("online_softmax needs a floating-point tensor")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    block = BLOCK_SIZE or min(triton.next_power_of_2(N), 1024)
    rows = 4
    online_softmax_kernel[(triton.cdiv(M, rows),)](
        out, x, M, N, x.stride(0), x.stride(1), out.stride(0), ROWS=rows, BLOCK_SIZE=block
    )
    return out
