# ruff: noqa
# WRONG: the store uses the LOAD's [BLOCK_M, BLOCK_N] mask for the [BLOCK_N, BLOCK_M] output pointers
# (the learner transposed the pointers and the tile but not the mask).  With the default 16 x 128 tile Triton
# cannot broadcast [16, 128] against [128, 16].  Teacher: FAIL, shape error at the store (line 29), saying the
# MASK has the transposed shape of the pointers (transpose the mask / build it in output order).
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
    rows = tl.program_id(axis=0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(axis=1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    out_ptrs = output_ptr + cols[:, None] * stride_om + rows[None, :] * stride_on
    tl.store(out_ptrs, tl.trans(tile), mask=mask)


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    n_rows, n_cols = x.shape
    output = torch.empty((n_cols, n_rows), device=x.device, dtype=x.dtype)
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))
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
