# ruff: noqa
# WRONG: b indexed by the ROW instead of the column (b_ptr + rows * stride_b, broadcast b[:, None]):
# out[i, j] = x[i, j] + b[i].  Every lab shape has M < N, so nothing goes out of bounds: Teacher: FAIL with a value
# mismatch (all but the diagonal i == j wrong); M = N = 1 passes.  The cause is the b load on line 30.
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
    rows = tl.program_id(axis=0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(axis=1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    x = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    row_mask = rows < n_rows
    b = tl.load(b_ptr + rows * stride_b, mask=row_mask)
    out = x + b[:, None]
    tl.store(output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, out, mask=mask)


def bias_add(x: torch.Tensor, b: torch.Tensor, BLOCK_M: int = 32, BLOCK_N: int = 64) -> torch.Tensor:
    if b.shape[0] != x.shape[1]:
        raise ValueError("b must have one element per column of x")
    if x.device != b.device:
        raise ValueError("x and b on different devices")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))
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
