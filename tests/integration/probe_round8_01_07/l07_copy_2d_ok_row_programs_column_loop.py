"""Probe round 8, 7/copy-2d, CORRECT: Liger-Kernel style, one program per row. The grid is (M,); each program walks
its row in BLOCK_N-wide chunks with a runtime loop (tl.range over cdiv(N, BLOCK_N)), loading
x_ptr + row * stride_xm + cols * stride_xn and storing at output_ptr + row * stride_om + cols * stride_on with the
column mask. BLOCK_M is accepted (the lab's variants pass it) and unused. Every element is read from x's own strided
storage and written once into a row-major output. Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_row_kernel(
    x_ptr,
    output_ptr,
    n_cols,
    stride_xm,
    stride_xn,
    stride_om,
    stride_on,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(axis=0).to(tl.int64)
    x_row = x_ptr + row * stride_xm
    out_row = output_ptr + row * stride_om
    for start in tl.range(0, n_cols, BLOCK_N):
        cols = start + tl.arange(0, BLOCK_N)
        mask = cols < n_cols
        values = tl.load(x_row + cols * stride_xn, mask=mask)
        tl.store(out_row + cols * stride_on, values, mask=mask)


def copy_2d(x: torch.Tensor, BLOCK_M: int = 64, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"copy_2d expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    copy_row_kernel[(n_rows,)](
        x, output, n_cols, x.stride(0), x.stride(1), output.stride(0), output.stride(1), BLOCK_N=BLOCK_N
    )
    return output
