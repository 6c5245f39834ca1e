"""Learner (wrong): "saves memory" by normalising in place: the kernel writes y over x's own row (through x's
strides) and the wrapper returns x. The values returned are right, but the caller's x is destroyed (a residual
stream read again after the norm), and y is a strided view of a wider tensor.
Right verdict: FAIL, with a diagnosis that the input x was modified / returned as the output."""

import triton
import triton.language as tl


@triton.jit
def rms_norm_fwd_kernel(
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
    row = tl.program_id(axis=0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(
        x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0, eviction_policy="evict_first"
    )
    x = x.to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / N
    rstd = tl.rsqrt(mean_square + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0, eviction_policy="evict_last").to(tl.float32)
    y = x * rstd * w
    tl.store(x_ptr + row * stride_xm + cols * stride_xn, y.to(x_ptr.dtype.element_ty), mask=mask)


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
    y = x  # normalised in place
    if M == 0:
        return y
    num_warps = 4 if BLOCK_N <= 2048 else (8 if BLOCK_N <= 8192 else 16)
    rms_norm_fwd_kernel[(M,)](
        x,
        weight,
        y,
        N,
        x.stride(0),
        x.stride(1),
        y.stride(0),
        eps,
        BLOCK_N=BLOCK_N,
        num_warps=num_warps,
    )
    return y
