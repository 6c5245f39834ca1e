"""Learner (wrong): eps used as a floor instead of an offset, rsqrt(max(mean(x^2), eps)), the "clamp to avoid
division by zero" habit. The zero row is right (max(0, eps) = eps = 0 + eps), and where the mean square is far
above eps (RMS ~20, eps = 1e-6) the two agree to 1e-9. In the case that passes eps = 1 on rows of mean square
~400 every row is scaled by sqrt(401 / 400) - 1 = 0.12 % too much, each row by its own factor: far over the
float32 tolerance. Right verdict: FAIL on the eps = 1 case only, naming eps (it is added to the mean square,
rsqrt(mean + eps), not a lower bound on it)."""

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(
    x_ptr,
    w_ptr,
    y_ptr,
    N,
    stride_xm,
    stride_xn,
    stride_ym,
    eps,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) / N
    rstd = tl.math.rsqrt(tl.maximum(mean_sq, eps))  # never divide by zero
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * stride_ym + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError(f"expected x 2D and weight 1D, got {x.dim()}D and {weight.dim()}D")
    M, N = x.shape
    if weight.shape[0] != N:
        raise ValueError(f"weight has {weight.shape[0]} values, rows have {N}")
    if x.device != weight.device:
        raise ValueError(f"x is on {x.device}, weight is on {weight.device}")
    if x.dtype != weight.dtype:
        raise TypeError(f"x is {x.dtype}, weight is {weight.dtype}")
    BLOCK_N = max(16, triton.next_power_of_2(N))
    if BLOCK_N > 65536:
        raise ValueError(f"rows of {N} values do not fit one block")
    weight = weight.contiguous()
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    num_warps = 4 if BLOCK_N <= 2048 else (8 if BLOCK_N <= 8192 else 16)
    rms_norm_kernel[(M,)](
        x, weight, y, N, x.stride(0), x.stride(1), y.stride(0), eps, BLOCK_N=BLOCK_N, num_warps=num_warps
    )
    return y
