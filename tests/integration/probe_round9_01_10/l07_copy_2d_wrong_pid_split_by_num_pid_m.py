"""Learner (wrong): a 1D grid of cdiv(M, BLOCK_M) * cdiv(N, BLOCK_N) programs, split back into a tile with the
wrong count: pid_m = pid // num_pid_m, pid_n = pid % num_pid_m (the row count where the column count belongs).
Whenever the two counts are equal (one tile, or a square grid of tiles) it is right; otherwise tiles are
skipped and others done twice.
Right verdict: FAIL on 33 x 65 (1 x 2 tiles), 127 x 129 (2 x 3) and the 16 x 128 variant; the first diagnosis
should name the pid split (the division by num_pid_m)."""

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
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(n_rows, BLOCK_M)
    pid_m = pid // num_pid_m
    pid_n = pid % num_pid_m
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
    grid = (triton.cdiv(n_rows, BLOCK_M) * triton.cdiv(n_cols, BLOCK_N),)
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
