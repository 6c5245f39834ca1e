"""Probe round 17b, 8/softmax, CORRECT: a two-pass softmax whose first pass keeps one running max and one
running sum per lane (vectors of CHUNK, an online softmax per lane: each lane's sum is rescaled by
exp(m_old - m_new) when its max grows). After the pass the lanes are combined: m = max over lanes, and
s = sum over lanes of s_lane * exp(m_lane - m) (lanes that only saw padding have m_lane = -inf and s_lane = 0:
a guard keeps exp(-inf - -inf) out). The second pass writes exp(x - m) / s. CHUNK is capped at 512, so long
rows take several chunks. Right verdict: PASS."""

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

    # combine the lanes: bring every lane's sum to the row max
    m = tl.max(m_lane, axis=0)
    s = tl.sum(tl.where(m_lane > -float("inf"), s_lane * tl.exp(m_lane - m), 0.0), axis=0)

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
