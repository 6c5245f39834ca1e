"""Probe round 15c (fix session, helper h1), 11/online-softmax, WRONG for a GPU: a per-lane online softmax. m and
l start as scalars (`m = -float("inf")`, `l = 0.0`) and `m_new = tl.maximum(m, x)` makes them [BLOCK_SIZE]
vectors in the loop: each lane keeps its own running max and sum, and after the loop the lanes are merged into
the row's (tl.max of m, l rescaled and summed). The numbers are right, and the interpreter, which runs the loop
in Python, passed it; a GPU compile refuses it ("Loop-carried variable m has initial type fp32 but is re-assigned
to <['64'], fp32> in loop!"). Starting both as blocks (tl.full([BLOCK_SIZE], ...)) would be a correct kernel.
Right verdict: FAIL, naming m's change of type at the maximum's line (a false pass before the loop rule)."""

import torch
import triton
import triton.language as tl

LOG2_E = tl.constexpr(1.4426950408889634)


@triton.jit
def online_softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    input_col_stride,
    output_row_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(axis=0).to(tl.int64)
    in_row = input_ptr + row * input_row_stride
    out_row = output_ptr + row * output_row_stride
    cols = tl.arange(0, BLOCK_SIZE)

    m = -float("inf")
    l = 0.0
    for start in range(0, n_cols, BLOCK_SIZE):
        mask = start + cols < n_cols
        x = tl.load(in_row + (start + cols) * input_col_stride, mask=mask, other=-float("inf"))
        x = x.to(tl.float32) * LOG2_E
        m_new = tl.maximum(m, x)
        alpha = tl.where(m_new == -float("inf"), 0.0, tl.exp2(m - m_new))
        p = tl.where(m_new == -float("inf"), 0.0, tl.exp2(x - m_new))
        l = l * alpha + p
        m = m_new

    m_row = tl.max(m, axis=0)
    l = tl.sum(tl.where(m == -float("inf"), 0.0, l * tl.exp2(m - m_row)), axis=0)
    m = m_row
    inv_l = 1.0 / l
    for start in range(0, n_cols, BLOCK_SIZE):
        mask = start + cols < n_cols
        x = tl.load(in_row + (start + cols) * input_col_stride, mask=mask, other=-float("inf"))
        p = tl.exp2(x.to(tl.float32) * LOG2_E - m) * inv_l
        tl.store(out_row + start + cols, p.to(output_ptr.dtype.element_ty), mask=mask)


def online_softmax(x: torch.Tensor, BLOCK_SIZE: int | None = None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"online_softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"online_softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    if BLOCK_SIZE is None:
        BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 4096)
    num_warps = 4 if BLOCK_SIZE <= 1024 else 8
    online_softmax_kernel[(n_rows,)](
        output,
        x,
        x.stride(0),
        x.stride(1),
        output.stride(0),
        n_cols,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=num_warps,
    )
    return output
