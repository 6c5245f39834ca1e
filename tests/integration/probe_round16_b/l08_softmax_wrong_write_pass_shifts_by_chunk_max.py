"""Probe round 16b, 8/softmax, WRONG: a chunked three-pass softmax (fixed CHUNK = 256, so long rows need no huge
block): pass 1 takes the row max over all chunks, pass 2 sums exp(x - m) over all chunks, pass 3 writes. In
pass 3 the learner pasted the one-block lines and shifts each chunk by its own max (`tl.max(x, axis=0)`) instead
of the row's m. A row of one chunk (N <= 256) is right; N = 1000 and N = 5000 get every chunk but the one holding
the row max scaled by exp(m - chunk_max).
Right verdict: FAIL on N = 1000 and N = 5000 only, naming the write pass's shift (line of `chunk_max`)."""

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

    # pass 1: the row max
    m_vec = tl.full([CHUNK], -float("inf"), tl.float32)
    for start in range(0, n_cols, CHUNK):
        cols = start + offs
        x = tl.load(in_row + cols * input_col_stride, mask=cols < n_cols, other=-float("inf"))
        m_vec = tl.maximum(m_vec, x.to(tl.float32))
    m = tl.max(m_vec, axis=0)

    # pass 2: the sum of exp(x - m)
    s_vec = tl.zeros([CHUNK], dtype=tl.float32)
    for start in range(0, n_cols, CHUNK):
        cols = start + offs
        x = tl.load(in_row + cols * input_col_stride, mask=cols < n_cols, other=-float("inf"))
        s_vec += tl.exp(x.to(tl.float32) - m)
    s = tl.sum(s_vec, axis=0)

    # pass 3: normalise and write
    for start in range(0, n_cols, CHUNK):
        cols = start + offs
        mask = cols < n_cols
        x = tl.load(in_row + cols * input_col_stride, mask=mask, other=-float("inf")).to(tl.float32)
        chunk_max = tl.max(x, axis=0)
        out = tl.exp(x - chunk_max) / s
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
    CHUNK = min(triton.next_power_of_2(n_cols), 256)
    softmax_kernel[(n_rows,)](
        output, x, x.stride(0), x.stride(1), output.stride(0), n_cols, CHUNK=CHUNK, num_warps=4
    )
    return output
