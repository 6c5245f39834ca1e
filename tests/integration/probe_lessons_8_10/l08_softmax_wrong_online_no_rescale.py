# ruff: noqa
# WRONG: online softmax that forgets to rescale the running sum when the running max grows
# (s = s + exp(x - m_new) instead of s = s * exp(m_old - m_new) + exp(x - m_new)): the denominator is too big
# whenever a later block raises the max. Rows of <= 32 columns (one block) are right. Teacher expects: FAIL,
# a value mismatch in rows longer than one block (N=100, N=1000), no inf/NaN, pointing at the sum update.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(
    out_ptr, in_ptr, in_row_stride, in_col_stride, out_row_stride, n_cols, BLOCK: tl.constexpr
):
    row = tl.program_id(0)
    in_row = in_ptr + row * in_row_stride
    m = -float("inf")
    s = 0.0
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(in_row + cols * in_col_stride, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, tl.max(x, axis=0))
        s = s + tl.sum(tl.exp(x - m_new), axis=0)
        m = m_new
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_row + cols * in_col_stride, mask=mask, other=-float("inf")).to(tl.float32)
        tl.store(
            out_ptr + row * out_row_stride + cols, (tl.exp(x - m) / s).to(out_ptr.dtype.element_ty), mask=mask
        )


def softmax(x):
    if x.dim() != 2:
        raise ValueError("2D only")
    if not x.is_floating_point():
        raise TypeError("float only")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    softmax_kernel[(M,)](out, x, x.stride(0), x.stride(1), out.stride(0), N, BLOCK=32)
    return out
