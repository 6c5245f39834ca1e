"""Probe round 15c, 11/online-softmax, WRONG: the TODO's max is taken per lane, `m_new = tl.maximum(m, x)`
(no `tl.max(x, axis=0)`): m starts 0-d and becomes a [BLOCK_SIZE] vector after the first chunk, and l with it (a
loop-carried value that changes type, which the GPU compiler refuses; the interpreter runs it). Pass 2 then
normalises each lane by its own max.
Right verdict: FAIL, naming the max line (a per-lane max where the row's max is needed)."""

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

    m = tl.full([], -float("inf"), tl.float32)
    l = tl.zeros([], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        mask = start + cols < n_cols
        x = tl.load(in_row + (start + cols) * input_col_stride, mask=mask, other=-float("inf"))
        x = x.to(tl.float32) * LOG2_E
        m_new = tl.maximum(m, x)
        l = l * tl.exp2(m - m_new) + tl.sum(tl.exp2(x - m_new), axis=0)
        m = m_new

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
