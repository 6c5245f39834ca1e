"""Probe round 17b, 10/debug-rms-norm, WRONG: the three planted bugs are fixed (row start by stride_xm, fp32
statistics, one load of x), but the learner wrote the row mask as `cols <= N` (off by one). Lane N is live:
it reads x[row, N], which lies inside the wider tensor x was sliced from (so the mean square takes one value
that is not in the row), reads weight[N], one past the end of the contiguous weight, and stores y[row, N],
which is y[row + 1, 0] (the last row's store lands past y's end). Where BLOCK_N == N (N = 64) lane N does not
exist and the case is right.
Right verdict: FAIL with an out-of-bounds access at column N (the weight load or y's store), pointing at the
mask line (`mask = cols <= N`: use <)."""

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(
    x_ptr,  # *x, shape [M, N], any strides
    w_ptr,  # *weight, shape [N], contiguous
    y_ptr,  # *y, shape [M, N], contiguous, written by this kernel
    N,  # columns: the length of each normalised row
    stride_xm,  # elements between x[i, j] and x[i + 1, j]
    stride_xn,  # elements between x[i, j] and x[i, j + 1]
    stride_ym,  # elements between y[i, j] and y[i + 1, j]
    eps,  # added to the mean square before the square root
    BLOCK_N: tl.constexpr,  # a power of two >= N: one block holds a whole row
):
    tl.static_assert(BLOCK_N >= 16, "BLOCK_N is the row block; keep it a power of two of at least 16")
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols <= N

    # Semantics: the row starts row * stride_xm elements in, whatever the layout (a sliced view is not N apart).
    # Numerics: upcast before squaring. fp16 tops out at 65504; 1000 values of magnitude 20 square-sum past it.
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    mean_square = tl.sum(x * x, axis=0) / N
    rstd = tl.rsqrt(mean_square + eps)

    # Performance: x is still in registers; reading it again would cost a second full pass over the row.
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    y = x * rstd * w
    tl.store(y_ptr + row * stride_ym + cols, y.to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, weight, eps=1e-6):
    """RMSNorm over the last dimension of a 2D tensor x [M, N] with a weight of N values."""
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
        raise ValueError(f"rows of {N} values do not fit one block; this kernel keeps a row in registers")
    weight = weight.contiguous()
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
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
        y.stride(0),
        eps,
        BLOCK_N=BLOCK_N,
        num_warps=num_warps,
    )
    return y
