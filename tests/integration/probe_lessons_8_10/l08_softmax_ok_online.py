# ruff: noqa
# CORRECT-BUT-DIFFERENT: online softmax. One program per row, but the row is walked in column blocks of 64
# (not one block per row): pass 1 keeps a running max m and a running sum s rescaled by exp(m_old - m_new),
# pass 2 writes exp(x - m) / s. Teacher expects: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(
    out_ptr, in_ptr, in_row_stride, in_col_stride, out_row_stride, n_cols, BLOCK: tl.constexpr
):
    row = tl.program_id(0)
    in_row = in_ptr + row * in_row_stride
    m = tl.full([BLOCK], -float("inf"), tl.float32)
    s = tl.zeros([BLOCK], tl.float32)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        x = tl.load(in_row + cols * in_col_stride, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        # lanes that have only seen -inf keep s = 0 (avoid exp(-inf - -inf) = NaN)
        scale = tl.where(m_new == -float("inf"), 0.0, tl.exp(m - m_new))
        s = s * scale + tl.where(m_new == -float("inf"), 0.0, tl.exp(x - m_new))
        m = m_new
    row_max = tl.max(m, axis=0)
    total = tl.sum(tl.where(m == -float("inf"), 0.0, s * tl.exp(m - row_max)), axis=0)
    for start in range(0, n_cols, BLOCK):
        cols = start + tl.arange(0, BLOCK)
        mask = cols < n_cols
        x = tl.load(in_row + cols * in_col_stride, mask=mask, other=-float("inf")).to(tl.float32)
        y = tl.exp(x - row_max) / total
        tl.store(out_ptr + row * out_row_stride + cols, y.to(out_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError("softmax expects a 2D tensor")
    if not x.is_floating_point():
        raise TypeError("softmax needs a floating-point tensor")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    softmax_kernel[(M,)](out, x, x.stride(0), x.stride(1), out.stride(0), N, BLOCK=64)
    return out
