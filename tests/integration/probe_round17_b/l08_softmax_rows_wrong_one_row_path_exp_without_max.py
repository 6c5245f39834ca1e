"""Probe round 17b, 8/softmax-rows, WRONG: the learner special-cases ROWS == 1 (one row per program, "like
softmax.py") with a 1D body pasted from the softmax starter, and in that path never subtracts the row max:
numerator = tl.exp(row). The ROWS > 1 path is the right 2D tile. Rows above ~88.7 overflow exp (inf / inf =
NaN) and the low row 0 underflows (0 / 0). Every case that runs with ROWS = 1 fails: the ROWS=1 variant, and
N = 1000, where the wrapper picks one row per program. Right verdict: FAIL on exactly those cases, exp without
the max in the ROWS == 1 path, pointing at its `numerator = tl.exp(row)` line."""

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
    if ROWS == 1:
        # one row per program: the 1D softmax
        row_idx = tl.program_id(axis=0)
        cols = tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        row = tl.load(
            input_ptr + row_idx * input_row_stride + cols * input_col_stride,
            mask=mask,
            other=-float("inf"),
        ).to(tl.float32)
        numerator = tl.exp(row)
        denominator = tl.sum(numerator, axis=0)
        out = numerator / denominator
        tl.store(
            output_ptr + row_idx * output_row_stride + cols,
            out.to(output_ptr.dtype.element_ty),
            mask=mask,
        )
    else:
        rows = tl.program_id(axis=0) * ROWS + tl.arange(0, ROWS)
        cols = tl.arange(0, BLOCK_SIZE)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        x_ptrs = input_ptr + rows[:, None] * input_row_stride + cols[None, :] * input_col_stride
        x = tl.load(x_ptrs, mask=mask, other=-float("inf")).to(tl.float32)
        row_max = tl.max(x, axis=1)
        numerator = tl.exp(x - row_max[:, None])
        denominator = tl.sum(numerator, axis=1)
        out = numerator / denominator[:, None]
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
    softmax_rows_kernel[(triton.cdiv(n_rows, rows),)](
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
