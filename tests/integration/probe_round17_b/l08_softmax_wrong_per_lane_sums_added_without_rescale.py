"""Probe round 17b, 8/softmax, WRONG: the same two-pass softmax with per-lane running maxima and sums (each
lane's own online softmax over the chunks, right), but when the lanes are combined after the first pass the
learner adds the lane sums as they are: s = tl.sum(s_lane) instead of tl.sum(s_lane * exp(m_lane - m)). Each
lane's sum is relative to that lane's own max, so s is too large whenever lanes have different maxima: every
row of more than one element comes out scaled down by one factor per row (N = 1 is right).
Right verdict: FAIL on every case with N > 1, one constant factor per row, pointing at the combine
(the `s = tl.sum(s_lane, axis=0)` line)."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    input_col_stride,
    output_row_stride,
    n_cols,
    CHUNK: tl.constexpr,
):
    row = tl.program_id(axis=0)
    in_row = input_ptr + row * input_row_stride
    out_row = output_ptr + row * output_row_stride
    offs = tl.arange(0, CHUNK)

    # pass 1: per-lane online max and sum
    m_lane = tl.full([CHUNK], -float("inf"), tl.float32)
    s_lane = tl.zeros([CHUNK], dtype=tl.float32)
    for start in range(0, n_cols, CHUNK):
        cols = start + offs
        x = tl.load(in_row + cols * input_col_stride, mask=cols < n_cols, other=-float("inf"))
        x = x.to(tl.float32)
        m_new = tl.maximum(m_lane, x)
        alive = m_new > -float("inf")
        scale = tl.where(alive, tl.exp(m_lane - m_new), 0.0)
        s_lane = s_lane * scale + tl.where(alive, tl.exp(x - m_new), 0.0)
        m_lane = m_new

    # combine the lanes
    m = tl.max(m_lane, axis=0)
    s = tl.sum(s_lane, axis=0)

    # pass 2: write
    for start in range(0, n_cols, CHUNK):
        cols = start + offs
        mask = cols < n_cols
        x = tl.load(in_row + cols * input_col_stride, mask=mask, other=-float("inf")).to(tl.float32)
        out = tl.exp(x - m) / s
        tl.store(out_row + cols, out.to(output_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    output = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if output.numel() == 0:
        return output
    CHUNK = min(triton.next_power_of_2(n_cols), 512)
    softmax_kernel[(n_rows,)](
        output, x, x.stride(0), x.stride(1), output.stride(0), n_cols, CHUNK=CHUNK, num_warps=4
    )
    return output
