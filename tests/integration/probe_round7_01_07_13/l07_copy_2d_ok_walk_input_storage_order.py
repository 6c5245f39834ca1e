"""Probe round 7, 7/copy-2d, CORRECT: a generic strided-copy kernel (src and dst each with their own two strides),
and a wrapper that, for a column-major-ish x (x.stride(0) < x.stride(1), as the lab's transposed view), launches it
on the transposed VIEWS x.t() and output.t() so that a tile's inner axis follows x's contiguous storage (coalesced
reads). The output is still allocated row-major [M, N] and returned as is; the kernel reads x's own storage.
Tiles stay BLOCK_M x BLOCK_N over x (the block sizes swap with the axes). Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def strided_copy_kernel(
    src_ptr,
    dst_ptr,
    n_rows,
    n_cols,
    stride_sr,
    stride_sc,
    stride_dr,
    stride_dc,
    BLOCK_R: tl.constexpr,
    BLOCK_C: tl.constexpr,
):
    pid_r = tl.program_id(axis=0)
    pid_c = tl.program_id(axis=1)
    rows = pid_r * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = pid_c * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    tile = tl.load(src_ptr + rows[:, None] * stride_sr + cols[None, :] * stride_sc, mask=mask)
    tl.store(dst_ptr + rows[:, None] * stride_dr + cols[None, :] * stride_dc, tile, mask=mask)


def copy_2d(x: torch.Tensor, BLOCK_M: int = 64, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"copy_2d expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    src, dst, block_r, block_c = x, output, BLOCK_M, BLOCK_N
    if x.stride(0) < x.stride(1):  # x's columns are contiguous: walk it column by column
        src, dst, block_r, block_c = x.t(), output.t(), BLOCK_N, BLOCK_M
    grid = (triton.cdiv(src.shape[0], block_r), triton.cdiv(src.shape[1], block_c))
    strided_copy_kernel[grid](
        src,
        dst,
        src.shape[0],
        src.shape[1],
        src.stride(0),
        src.stride(1),
        dst.stride(0),
        dst.stride(1),
        BLOCK_R=block_r,
        BLOCK_C=block_c,
    )
    return output
