"""Probe round 7, 7/bias-add, WRONG: a copy-paste slip: b's addresses use x's column stride (stride_xn) instead
of b's own stride. x arrives transposed (stride_xn = M), so b[j] is read at b_ptr + j * M: past the end of b as
soon as M > 1 (and the wrong elements before that). The wrapper passes b.stride(0) but the kernel never uses it.
Right verdict: FAIL, out of bounds on the b load line (the line that reads b with stride_xn); M = 1 passes.
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
    bias = tl.load(b_ptr + cols * stride_xn, mask=cols < n_cols)
    out = x + bias[None, :]
    tl.store(output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, out, mask=mask)


def bias_add(x: torch.Tensor, b: torch.Tensor, BLOCK_M: int = 32, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2 or b.dim() != 1:
        raise ValueError(f"need a 2D x and a 1D b, got {tuple(x.shape)} and {tuple(b.shape)}")
    if len(b) != x.shape[1]:
        raise ValueError(f"b has {len(b)} elements but x has {x.shape[1]} columns")
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
