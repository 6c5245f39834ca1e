"""Probe round 15a, 7/transpose, CORRECT: no 2D blocks and no tl.trans: each program's BLOCK_M x BLOCK_N tile of
x is walked as one flat block of BLOCK_M * BLOCK_N lanes; lane k is element (k // BLOCK_N, k % BLOCK_N) of the
tile, read from x through its strides and written to output[col, row] through the output's strides.
Right verdict: PASS."""

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
    k = tl.arange(0, BLOCK_M * BLOCK_N)
    row = pid_m * BLOCK_M + k // BLOCK_N
    col = pid_n * BLOCK_N + k % BLOCK_N
    mask = (row < n_rows) & (col < n_cols)
    values = tl.load(x_ptr + row * stride_xm + col * stride_xn, mask=mask)
    tl.store(output_ptr + col * stride_om + row * stride_on, values, mask=mask)


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"transpose expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_cols, n_rows), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))  # noqa: E731
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
