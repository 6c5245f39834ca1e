"""Learner (wrong, a performance bug): vLLM / Triton-tutorial layer-norm style, the row walked in chunks of at most
BLOCK = 256 columns, twice: a first loop sums x^2 chunk by chunk, a second loop loads each chunk of x again to
normalise it. The values are right in every dtype (float32 statistics). But x is read twice for every row, even
the rows that fit one chunk, and the rows of 300 and of 1000 columns would fit in registers as well (the lesson's
kernel keeps one block of next_power_of_2(N) values): the lesson's budget is one read of x, one of the weight, one
write of y. Right verdict: FAIL with perf-bytes, naming x as what is read twice (the load in the second loop)."""

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
    BLOCK: tl.constexpr,
):
    row = tl.program_id(axis=0)
    x_row = x_ptr + row * stride_xm
    y_row = y_ptr + row * stride_ym
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_row + cols * stride_xn, mask=cols < N, other=0.0).to(tl.float32)
        acc += x * x
    rstd = 1.0 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        x = tl.load(x_row + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        tl.store(y_row + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


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
    weight = weight.contiguous()
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    BLOCK = min(256, max(16, triton.next_power_of_2(N)))  # any N: the row is walked in chunks
    rms_norm_kernel[(M,)](
        x, weight, y, N, x.stride(0), x.stride(1), y.stride(0), eps, BLOCK=BLOCK, num_warps=4
    )
    return y
