"""Probe round 7, 7/transpose, CORRECT: tutorial-style memory hints and another spelling of the transpose. The
tile is loaded with cache_modifier=".cg" and eviction_policy="evict_first" (it is read exactly once), turned with
tl.permute(tile, (1, 0)) instead of tl.trans, and stored with cache_modifier=".cs" through a [BLOCK_N, BLOCK_M]
grid of output addresses and the matching transposed mask. Offsets are int64. Right verdict: PASS.
"""

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
    pid_m = tl.program_id(axis=0).to(tl.int64)
    pid_n = tl.program_id(axis=1).to(tl.int64)
    rows = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    in_mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(
        x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn,
        mask=in_mask,
        other=0.0,
        cache_modifier=".cg",
        eviction_policy="evict_first",
    )
    out_ptrs = output_ptr + cols[:, None] * stride_om + rows[None, :] * stride_on
    out_mask = (cols[:, None] < n_cols) & (rows[None, :] < n_rows)
    tl.store(out_ptrs, tl.permute(tile, (1, 0)), mask=out_mask, cache_modifier=".cs")


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"transpose expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_cols, n_rows), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    grid = (triton.cdiv(n_rows, BLOCK_M), triton.cdiv(n_cols, BLOCK_N))
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
