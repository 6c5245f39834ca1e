"""Probe round 15a, 7/transpose, WRONG: the kernel is right; the wrapper passes the OUTPUT's shape as n_rows,
n_cols (`n_rows, n_cols = output.shape` after allocating it [N, M]), so the kernel's masks bound x's rows by N and
its columns by M, while the grid (from x.shape) still tiles x. Square x would pass; for M = 7, N = 13 the load
reads rows 7..12 of x that do not exist. Right verdict: FAIL, out of bounds at the load, and ideally saying that
n_rows (13) is not x's row count (7): line 42 takes the output's shape, the launch on line 44 hands it to the kernel."""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(
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
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    out_ptrs = output_ptr + cols[:, None] * stride_om + rows[None, :] * stride_on
    out_mask = (cols[:, None] < n_cols) & (rows[None, :] < n_rows)
    tl.store(out_ptrs, tl.trans(tile), mask=out_mask)


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"transpose expects a 2D tensor, got shape {tuple(x.shape)}")
    output = torch.empty((x.shape[1], x.shape[0]), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    n_rows, n_cols = output.shape
    grid = lambda meta: (triton.cdiv(x.shape[0], meta["BLOCK_M"]), triton.cdiv(x.shape[1], meta["BLOCK_N"]))  # noqa: E731
    transpose_kernel[grid](
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
