# WRONG: the wrapper passes n_cols as x's row stride (assumes x contiguous; the lab's x is a sliced view); the kernel also takes stride_on and never uses it (harmless: the output is contiguous). Right verdict: FAIL, cause the row stride argument (line 33), not the unused stride_on.
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(
    x_ptr,
    out_ptr,
    n_rows,
    n_cols,
    stride_xm,
    stride_xn,
    stride_om,
    stride_on,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    out_ptrs = out_ptr + cols[:, None] * stride_om + rows[None, :]  # the output is row-major: unit step
    tl.store(out_ptrs, tl.trans(tile), mask=(cols[:, None] < n_cols) & (rows[None, :] < n_rows))


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"transpose expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_cols, n_rows), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    grid = (triton.cdiv(n_rows, BLOCK_M), triton.cdiv(n_cols, BLOCK_N))
    transpose_kernel[grid](
        x,
        out,
        n_rows,
        n_cols,
        n_cols,
        1,
        out.stride(0),
        out.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return out
