"""Probe round 8, 7/copy-2d, WRONG: program ids on the wrong axes. The grid is the starter's
(cdiv(M, BLOCK_M), cdiv(N, BLOCK_N)), but the learner reads pid_m = tl.program_id(axis=1) and
pid_n = tl.program_id(axis=0). Axis 0 counts row tiles, so the column-tile index now runs over the row-tile count
and vice versa: with one tile per axis (M, N <= 64) nothing changes, but for M = 33, N = 65 and BLOCK 16 x 128, or
M = 127, N = 129 and 64 x 64, tiles are skipped (never written) while others are computed twice or fully masked.
Right verdict: FAIL with elements never written, and the diagnosis should point at the program ids / grid axes.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_2d_kernel(
    x_ptr,
    output_ptr,
    n_rows,
    n_cols,
    stride_xm,
    stride_xn,
    stride_om,
    stride_on,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(axis=1)
    pid_n = tl.program_id(axis=0)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    tl.store(output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, tile, mask=mask)


def copy_2d(x: torch.Tensor, BLOCK_M: int = 64, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"copy_2d expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))  # noqa: E731
    copy_2d_kernel[grid](
        x,
        output,
        n_rows,
        n_cols,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        output.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return output
