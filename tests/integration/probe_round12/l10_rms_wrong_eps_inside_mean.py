# WRONG: eps is added to the sum of squares before dividing by N, so the row gets eps / N instead of eps (visible in the eps = 1.0 case). Right verdict: FAIL, cause the eps placement (line 16).
import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_kernel(x_ptr, w_ptr, y_ptr, N, stride_xm, stride_xn, stride_ym, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    sum_sq = tl.sum(x * x, axis=0)
    # mean of squares, regularised
    rstd = tl.rsqrt((sum_sq + eps) / N)
    tl.store(y_ptr + row * stride_ym + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError("expected x 2D and weight 1D")
    M, N = x.shape
    if weight.shape[0] != N:
        raise ValueError("weight has the wrong length")
    if x.device != weight.device:
        raise ValueError("x and weight are on different devices")
    if x.dtype != weight.dtype:
        raise TypeError("x and weight have different dtypes")
    weight = weight.contiguous()
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if M == 0:
        return y
    rms_norm_kernel[(M,)](
        x,
        weight,
        y,
        N,
        x.stride(0),
        x.stride(1),
        y.stride(0),
        eps,
        BLOCK_N=max(16, triton.next_power_of_2(N)),
    )
    return y
