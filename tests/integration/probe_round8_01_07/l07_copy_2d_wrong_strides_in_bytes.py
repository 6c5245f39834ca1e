"""Probe round 8, 7/copy-2d, WRONG: a CUDA/C habit. The kernel builds its address grids from the strides correctly,
but the wrapper passes the strides in BYTES (x.stride(0) * x.element_size(), ...), as one would for a char* in
CUDA. Triton pointer arithmetic already counts in elements of the pointer's type, so every address is 4 (float32) or
2 (float16) times too far: reads and writes land past the end of x and the output as soon as an index is non-zero.
Right verdict: FAIL, out of bounds (on the load, the first access), and the message should make clear that the
offsets/strides are too large (strides are in elements), naming the learner's load line.
"""

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
    tile = tl.load(x_ptr + rows[:, None] * stride_xm + cols[None, :] * stride_xn, mask=mask)
    tl.store(output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, tile, mask=mask)


def copy_2d(x: torch.Tensor, BLOCK_M: int = 64, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"copy_2d expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    size = x.element_size()
    grid = lambda meta: (triton.cdiv(n_rows, meta["BLOCK_M"]), triton.cdiv(n_cols, meta["BLOCK_N"]))  # noqa: E731
    copy_2d_kernel[grid](
        x,
        output,
        n_rows,
        n_cols,
        x.stride(0) * size,
        x.stride(1) * size,
        output.stride(0) * size,
        output.stride(1) * size,
        BLOCK_M=BLOCK_M,
        BLOCK_N=BLOCK_N,
    )
    return output
