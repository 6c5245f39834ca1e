"""Probe round 13, 10/debug-rms-norm, WRONG: the mean square is computed as (sum x)^2 / N -- the square of
the sum, not the sum of the squares. Right verdict: FAIL (mismatch; the line is 16)."""

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    total = tl.sum(x, axis=0)
    mean_square = total * total / N
    rstd = tl.rsqrt(mean_square + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_ym + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError("expected x 2D and weight 1D")
    M, N = x.shape
    if weight.shape[0] != N:
        raise ValueError(f"weight has {weight.shape[0]} values, rows have {N}")
    if x.dtype != weight.dtype:
        raise TypeError("x and weight dtypes differ")
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    BLOCK_N = max(16, triton.next_power_of_2(N))
    rms_norm_kernel[(M,)](
        x, weight.contiguous(), y, N, x.stride(0), x.stride(1), y.stride(0), eps, BLOCK_N=BLOCK_N
    )
    return y
