"""Probe round 8, 7/transpose, WRONG: the wrapper returns a view. The learner's kernel copies x tile by tile into an
[M, N] row-major buffer (a correct strided copy), and the wrapper returns buffer.t(): the shape [N, M] and every
value are those of x.t(), but the result is a transposed VIEW (strides (1, N)), not the new row-major tensor the
exercise asks for; the data was never moved into transposed order, which is the whole work of a transpose.
Right verdict: FAIL on the output layout (not contiguous / not row-major), with a message that says the result is a
view with strides (1, N) and must be a new row-major tensor.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_tile_kernel(
    x_ptr,
    buf_ptr,
    n_rows,
    n_cols,
    stride_xm,
    stride_xn,
    stride_bm,
    stride_bn,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    tl.store(buf_ptr + rows[:, None] * stride_bm + cols[None, :] * stride_bn, tile, mask=mask)


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"transpose expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    buf = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if buf.numel() == 0:
        return buf.t()
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))  # noqa: E731
    copy_tile_kernel[grid](
        x,
        buf,
        n_rows,
        n_cols,
        x.stride(0),
        x.stride(1),
        buf.stride(0),
        buf.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return buf.t()
