"""Learner (correct but different): a persistent softmax-rows in the style of the official fused-softmax tutorial:
at most a handful of programs, each walking ROWS-row tiles pid, pid + num_programs, ... with tl.range, both
reductions along axis 1 with keep_dims=True (no [:, None] needed). Rows past M are masked. Right verdict: PASS."""

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
    BLOCK_SIZE: tl.constexpr,
):
    pid = tl.program_id(axis=0)
    num_programs = tl.num_programs(axis=0)
    n_tiles = tl.cdiv(n_rows, ROWS)
    cols = tl.arange(0, BLOCK_SIZE)
    for tile in tl.range(pid, n_tiles, num_programs, num_stages=2):
        rows = tile * ROWS + tl.arange(0, ROWS)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        x_ptrs = input_ptr + rows[:, None] * input_row_stride + cols[None, :] * input_col_stride
        x = tl.load(x_ptrs, mask=mask, other=-float("inf")).to(tl.float32)
        shifted = x - tl.max(x, axis=1, keep_dims=True)
        numerator = tl.exp(shifted)
        out = numerator / tl.sum(numerator, axis=1, keep_dims=True)
        out_ptrs = output_ptr + rows[:, None] * output_row_stride + cols[None, :]
        tl.store(out_ptrs, out.to(output_ptr.dtype.element_ty), mask=mask)


def pick_launch(n_cols: int) -> tuple[int, int, int]:
    block = triton.next_power_of_2(n_cols)
    if block <= 1024:
        rows = 1024 // block
        num_warps = 8 if block <= 128 else 4
    elif block == 2048:
        rows, num_warps = 2, 4
    elif block == 4096:
        rows, num_warps = 2, 16
    else:
        rows, num_warps = 1, 16
    return block, rows, num_warps


def softmax(x: torch.Tensor, ROWS=None, num_warps=None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    block, rows, warps = pick_launch(n_cols)
    if x.device.type == "cpu":
        rows, warps = min(rows, 4), 4
    rows = ROWS or rows
    programs = min(triton.cdiv(n_rows, rows), 3)  # a few persistent programs, each walks several tiles
    softmax_rows_kernel[(programs,)](
        output,
        x,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        n_rows,
        n_cols,
        ROWS=rows,
        BLOCK_SIZE=block,
        num_warps=num_warps or warps,
    )
    return output
