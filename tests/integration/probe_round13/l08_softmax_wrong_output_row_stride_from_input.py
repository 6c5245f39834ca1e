"""Probe round 13, 8/softmax, WRONG: the store steps output rows by the INPUT's row stride. For a contiguous x
that is the same number, but for a strided x (a slice of a wider tensor, or a transposed view) the rows land
in the wrong places of the contiguous output. Right verdict: FAIL on the strided-input cases (the store, line
20, and the stride used there)."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, x_ptr, stride_xm, stride_xn, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=-float("inf")).to(tl.float32)
    z = x - tl.max(x, axis=0)
    e = tl.exp(z)
    p = e / tl.sum(e, axis=0)
    tl.store(out_ptr + row * stride_xm + cols, p.to(out_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError("softmax expects a 2D tensor")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    softmax_kernel[(M,)](out, x, x.stride(0), x.stride(1), N, BLOCK=triton.next_power_of_2(N))
    return out
