# ruff: noqa
# Correct but different: a 1D grid split into (pid_m, pid_n) with // and %, int64 row/column indices,
# a 32 x 32 default tile with num_warps=2, output allocated with torch.empty(x.shape, ...).  Teacher: PASS.
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
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(n_cols, BLOCK_N)
    pid_m = pid // tiles_n
    pid_n = pid % tiles_n
    rows = (pid_m * BLOCK_M + tl.arange(0, BLOCK_M)).to(tl.int64)
    cols = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)).to(tl.int64)
    mask = (rows < n_rows)[:, None] & (cols < n_cols)[None, :]
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    tl.store(output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, tile, mask=mask)


def copy_2d(x: torch.Tensor, BLOCK_M: int = 32, BLOCK_N: int = 32) -> torch.Tensor:
    if x.ndim != 2:
        raise ValueError("2D only")
    M, N = x.shape
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    if out.numel() == 0:
        return out
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    copy_2d_kernel[grid](
        x,
        out,
        M,
        N,
        x.stride(0),
        x.stride(1),
        out.stride(0),
        out.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
        num_warps=2,
    )
    return out
