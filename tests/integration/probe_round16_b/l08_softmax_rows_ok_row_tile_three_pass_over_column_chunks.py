"""Probe round 16b, 8/softmax-rows, CORRECT: a ROWS x CHUNK tile walks the columns in chunks (CHUNK at most 64),
three passes per tile of rows: the per-row max (a [ROWS, CHUNK] running maximum reduced along axis 1), the
per-row sum of exp(x - m[:, None]), then the normalised write. Rows past n_rows are masked; their max (-inf) is
replaced by 0 so no -inf - -inf is formed. Honors the caller's ROWS and num_warps. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    input_col_stride,
    output_row_stride,
    n_rows,
    n_cols,
    ROWS: tl.constexpr,
    CHUNK: tl.constexpr,
):
    rows = tl.program_id(axis=0) * ROWS + tl.arange(0, ROWS)
    row_ok = rows < n_rows
    offs = tl.arange(0, CHUNK)
    x_rows = input_ptr + rows[:, None] * input_row_stride
    o_rows = output_ptr + rows[:, None] * output_row_stride

    m_tile = tl.full([ROWS, CHUNK], -float("inf"), tl.float32)
    for start in range(0, n_cols, CHUNK):
        cols = start + offs
        mask = row_ok[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_rows + cols[None, :] * input_col_stride, mask=mask, other=-float("inf"))
        m_tile = tl.maximum(m_tile, x.to(tl.float32))
    m = tl.max(m_tile, axis=1)
    m = tl.where(row_ok, m, 0.0)

    s_tile = tl.zeros([ROWS, CHUNK], dtype=tl.float32)
    for start in range(0, n_cols, CHUNK):
        cols = start + offs
        mask = row_ok[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_rows + cols[None, :] * input_col_stride, mask=mask, other=-float("inf"))
        s_tile += tl.exp(x.to(tl.float32) - m[:, None])
    s = tl.sum(s_tile, axis=1)
    inv = 1.0 / tl.where(row_ok, s, 1.0)

    for start in range(0, n_cols, CHUNK):
        cols = start + offs
        mask = row_ok[:, None] & (cols[None, :] < n_cols)
        x = tl.load(x_rows + cols[None, :] * input_col_stride, mask=mask, other=-float("inf"))
        out = tl.exp(x.to(tl.float32) - m[:, None]) * inv[:, None]
        tl.store(o_rows + cols[None, :], out.to(output_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor, ROWS=None, num_warps=None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    chunk = min(triton.next_power_of_2(n_cols), 64)
    rows = ROWS or max(1, min(16, 512 // chunk))
    softmax_rows_kernel[(triton.cdiv(n_rows, rows),)](
        output,
        x,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        n_rows,
        n_cols,
        ROWS=rows,
        CHUNK=chunk,
        num_warps=num_warps or 4,
    )
    return output
