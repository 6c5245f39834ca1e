"""Probe round 13, 7/copy-2d, WRONG: the tile's rows start at pid_m * BLOCK_N (the column block size) instead
of pid_m * BLOCK_M; with BLOCK_M = 16 and BLOCK_N = 32 the second row block starts at row 32, so rows 16-31
are never written (and the grid's last row programs start past M). Right verdict: FAIL (unwritten rows; the
line to name is 26)."""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_2d_kernel(
    x_ptr,
    out_ptr,
    M,
    N,
    stride_xm,
    stride_xn,
    stride_om,
    stride_on,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rows = pid_m * BLOCK_N + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    v = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    tl.store(out_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, v, mask=mask)


def copy_2d(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 32) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError("copy_2d expects a 2D tensor")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    copy_2d_kernel[grid](
        x, out, M, N, x.stride(0), x.stride(1), out.stride(0), out.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N
    )
    return out
