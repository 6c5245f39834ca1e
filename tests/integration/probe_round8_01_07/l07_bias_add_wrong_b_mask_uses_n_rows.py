"""Probe round 8, 7/bias-add, WRONG: the bias load is masked against the wrong bound. The learner loads b with
mask=cols < n_rows (M, the row count) instead of cols < n_cols (N, b's length). In the lab's cases N > M, so the
columns M..N-1 of b are masked off and replaced by other=0.0: those columns of the output come out as x without
bias, silently; no access goes out of bounds. Right verdict: FAIL, a value mismatch confined to columns >= M (the
first diagnosis should point at b's load and its mask, not at the padding value other=).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(
    x_ptr,
    b_ptr,
    output_ptr,
    n_rows,
    n_cols,
    stride_xm,
    stride_xn,
    stride_b,
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
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    b = tl.load(b_ptr + cols * stride_b, mask=cols < n_rows, other=0.0)
    out = x + b[None, :]
    tl.store(output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, out, mask=mask)


def bias_add(x: torch.Tensor, b: torch.Tensor, BLOCK_M: int = 32, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2 or b.dim() != 1:
        raise ValueError(f"expected a 2D x and a 1D b, got {tuple(x.shape)} and {tuple(b.shape)}")
    if b.shape[0] != x.shape[1]:
        raise ValueError(f"b has {b.shape[0]} elements but x has {x.shape[1]} columns")
    if x.device != b.device:
        raise ValueError(f"x is on {x.device} but b is on {b.device}")
    if x.dtype != b.dtype:
        raise TypeError(f"x is {x.dtype} but b is {b.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))  # noqa: E731
    bias_add_kernel[grid](
        x,
        b,
        output,
        n_rows,
        n_cols,
        x.stride(0),
        x.stride(1),
        b.stride(0),
        output.stride(0),
        output.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return output
