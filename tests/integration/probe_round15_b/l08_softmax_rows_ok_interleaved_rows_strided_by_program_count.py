"""Probe round 15b, 8/softmax-rows, CORRECT: a program's ROWS rows are not adjacent but interleaved across the grid:
program p owns rows p, p + G, p + 2G, ... (G = number of programs), so the G * ROWS row slots cover [0, n_rows).
int64 row offsets; the column part of the mask is built once and broadcast; exp2 with log2(e) folded into the
shift. Right verdict: PASS."""

import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


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
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    n_programs = tl.num_programs(axis=0)
    rows = (pid + tl.arange(0, ROWS) * n_programs).to(tl.int64)  # [ROWS], interleaved
    cols = tl.arange(0, BLOCK_SIZE)
    col_ok = cols < n_cols
    mask = (rows < n_rows)[:, None] & col_ok[None, :]
    x = tl.load(
        input_ptr + rows[:, None] * input_row_stride + cols[None, :] * input_col_stride,
        mask=mask,
        other=-float("inf"),
    ).to(tl.float32)
    row_max = tl.max(x, axis=1)  # [ROWS]
    # a fully masked row (past n_rows) has max -inf: shift by 0 there so no -inf - -inf appears
    row_max = tl.where(rows < n_rows, row_max, 0.0)
    p = tl.exp2((x - row_max[:, None]) * LOG2E)
    out = p / tl.sum(p, axis=1, keep_dims=True)
    tl.store(
        output_ptr + rows[:, None] * output_row_stride + cols[None, :],
        out.to(output_ptr.dtype.element_ty),
        mask=mask,
    )


def softmax(x: torch.Tensor, ROWS=None, num_warps=None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    block = triton.next_power_of_2(n_cols)
    rows = ROWS or max(1, min(8, 2048 // block))
    if rows & (rows - 1):
        raise ValueError(f"ROWS must be a power of two, got {rows}")
    grid = (triton.cdiv(n_rows, rows),)
    softmax_rows_kernel[grid](
        output,
        x,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        n_rows,
        n_cols,
        ROWS=rows,
        BLOCK_SIZE=block,
        num_warps=num_warps or 4,
    )
    return output
