# ruff: noqa
# CORRECT-BUT-DIFFERENT (softmax-rows): several rows per program, but as a loop over ROWS one-dimensional rows
# (tl.static_range) instead of a [ROWS, BLOCK_SIZE] tile, each row skipped when past the end. Honors the ROWS and
# num_warps keywords. Teacher expects: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_rows_kernel(
    out_ptr,
    in_ptr,
    in_row_stride,
    in_col_stride,
    out_row_stride,
    n_rows,
    n_cols,
    ROWS: tl.constexpr,
    BLOCK_SIZE: tl.constexpr,
):
    first = tl.program_id(0) * ROWS
    cols = tl.arange(0, BLOCK_SIZE)
    for r in tl.static_range(ROWS):
        row = first + r
        mask = (cols < n_cols) & ((row + cols * 0) < n_rows)
        x = tl.load(in_ptr + row * in_row_stride + cols * in_col_stride, mask=mask, other=-float("inf"))
        x = x.to(tl.float32)
        e = tl.exp(x - tl.max(x, axis=0))
        y = e / tl.sum(e, axis=0)
        tl.store(out_ptr + row * out_row_stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def softmax(x, ROWS=None, num_warps=None):
    if x.dim() != 2:
        raise ValueError("2D only")
    if not x.is_floating_point():
        raise TypeError("float only")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    rows = ROWS or 2
    softmax_rows_kernel[(triton.cdiv(M, rows),)](
        out,
        x,
        x.stride(0),
        x.stride(1),
        out.stride(0),
        M,
        N,
        ROWS=rows,
        BLOCK_SIZE=triton.next_power_of_2(N),
        num_warps=num_warps or 4,
    )
    return out
