# ruff: noqa
# WRONG: x's strides used in the wrong order (rows * stride_xn + cols * stride_xm). For the lab's transposed x
# this reads storage element i * M + j instead of i + j * M, which stays inside x's storage for the lab's
# shapes.  Teacher: FAIL with a value mismatch (only the diagonal right); M = N = 1 passes.  Cause: line 29.
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
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    # the learner mixed up which stride goes with which index
    x_ptrs = x_ptr + rows[:, None] * stride_xn + cols[None, :] * stride_xm
    tile = tl.load(x_ptrs, mask=mask)
    out_ptrs = output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on
    tl.store(out_ptrs, tile, mask=mask)


def copy_2d(x: torch.Tensor, BLOCK_M: int = 64, BLOCK_N: int = 64) -> torch.Tensor:
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))
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
