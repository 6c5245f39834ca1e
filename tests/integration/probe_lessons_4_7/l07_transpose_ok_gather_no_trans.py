# ruff: noqa
# Correct but different: no tl.trans; the program builds its tile directly in OUTPUT order, loading
# x[cols, rows] through a transposed address grid, so the store is a plain row-major tile; grid ordered
# over the output (axis 0 = output rows).  Teacher: PASS.
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
    # this program owns output rows j in [pid_j*BLOCK_N, ...) and output columns i in [pid_i*BLOCK_M, ...)
    pid_j = tl.program_id(0)
    pid_i = tl.program_id(1)
    j = pid_j * BLOCK_N + tl.arange(0, BLOCK_N)
    i = pid_i * BLOCK_M + tl.arange(0, BLOCK_M)
    mask = (j[:, None] < n_cols) & (i[None, :] < n_rows)
    vals = tl.load(x_ptr + i[None, :] * stride_xm + j[:, None] * stride_xn, mask=mask)
    tl.store(output_ptr + j[:, None] * stride_om + i[None, :] * stride_on, vals, mask=mask)


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    M, N = x.shape
    out = x.new_empty((N, M))
    if out.numel() == 0:
        return out
    grid = lambda meta: (triton.cdiv(N, meta["BLOCK_N"]), triton.cdiv(M, meta["BLOCK_M"]))
    transpose_kernel[grid](x, out, M, N, *x.stride(), *out.stride(), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N)
    return out
