"""Probe round 16b, 10/debug-rms-norm, CORRECT: the three bugs fixed, in a shape the reference does not use: the
mean's 1/N is computed once on the host and passed as a float (`inv_n`), the kernel multiplies instead of
dividing; y comes from torch.empty_like(x) (x is a sliced view, so empty_like gives a fresh row-major tensor) and
both of y's strides are passed; the weight is read through its own stride (no .contiguous() copy); x is loaded
once and upcast at the load; tl.rsqrt. Right verdict: PASS."""

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
    stride_w,
    stride_ym,
    stride_yn,
    inv_n,  # 1 / N, from the host
    eps,
    BLOCK_N: tl.constexpr,
):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    mean_sq = tl.sum(x * x, axis=0) * inv_n
    rstd = tl.rsqrt(mean_sq + eps)
    w = tl.load(w_ptr + cols * stride_w, mask=mask, other=0.0).to(tl.float32)
    y = (x * rstd) * w
    tl.store(y_ptr + row * stride_ym + cols * stride_yn, y.to(y_ptr.dtype.element_ty), mask=mask)


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
    y = torch.empty_like(x)
    if M == 0:
        return y
    num_warps = 4 if BLOCK_N <= 2048 else (8 if BLOCK_N <= 8192 else 16)
    rms_norm_kernel[(M,)](
        x,
        weight,
        y,
        N,
        x.stride(0),
        x.stride(1),
        weight.stride(0),
        y.stride(0),
        y.stride(1),
        1.0 / N,
        eps,
        BLOCK_N=BLOCK_N,
        num_warps=num_warps,
    )
    return y
