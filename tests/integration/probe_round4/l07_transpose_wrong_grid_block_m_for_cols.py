"""Learner: sizes the grid's column axis with BLOCK_M instead of BLOCK_N (a copy-paste slip)."""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(
    x_ptr,  # pointer to x[0, 0]
    output_ptr,  # pointer to output[0, 0]; output has shape [n_cols, n_rows]
    n_rows,  # M: rows of x
    n_cols,  # N: columns of x
    stride_xm,  # elements between x[i, j] and x[i + 1, j]
    stride_xn,  # elements between x[i, j] and x[i, j + 1]
    stride_om,  # elements between output[j, i] and output[j + 1, i]
    stride_on,  # elements between output[j, i] and output[j, i + 1]
    BLOCK_M: tl.constexpr,  # tile rows (of x)
    BLOCK_N: tl.constexpr,  # tile columns (of x)
):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)  # row indices of x
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)  # column indices of x
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)  # [BLOCK_M, BLOCK_N]
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    # x[i, j] goes to output[j, i]: in the output, x's columns index the rows.
    out_ptrs = output_ptr + cols[:, None] * stride_om + rows[None, :] * stride_on  # [BLOCK_N, BLOCK_M]
    out_mask = (cols[:, None] < n_cols) & (rows[None, :] < n_rows)
    tl.store(out_ptrs, tl.trans(tile), mask=out_mask)


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    """Return x.t() as a new contiguous tensor of shape [N, M]."""
    if x.dim() != 2:
        raise ValueError(f"transpose expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_cols, n_rows), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_M"]))  # noqa: E731
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
