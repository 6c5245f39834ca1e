"""Probe round 17a, 7/copy-2d, CORRECT: the program reads its tile the other way round, as a
[BLOCK_N, BLOCK_M] tile of x.t() (cols[:, None] * stride_xn + rows[None, :] * stride_xm, with the mask
transposed to match), so that for the lab's transposed x the inner axis follows x's storage; tl.trans turns
it into the [BLOCK_M, BLOCK_N] tile that is stored row-major. Any strides work: only the loop order changes."""

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
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    # [BLOCK_N, BLOCK_M]: x's columns down, x's rows across
    xt_ptrs = x_ptr + cols[:, None] * stride_xn + rows[None, :] * stride_xm
    xt_mask = (cols[:, None] < n_cols) & (rows[None, :] < n_rows)
    tile = tl.trans(tl.load(xt_ptrs, mask=xt_mask))  # back to [BLOCK_M, BLOCK_N]
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    out_ptrs = output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on
    tl.store(out_ptrs, tile, mask=mask)


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
