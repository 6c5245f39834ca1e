# FAKE: the backward's kernel only makes dw's partial rows; dx = rstd * (g - x_hat * mean(g * x_hat)) is computed by torch and returned as it is. Right verdict: FAIL (dx is the kernels' part).
import torch
import triton
import triton.language as tl


@triton.jit
def fwd_kernel(x_ptr, w_ptr, y_ptr, rstd_ptr, N, stride_x, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def dw_rows_kernel(dy_ptr, x_ptr, rstd_ptr, part_ptr, N, stride_x, BLOCK_N: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_x + cols, mask=mask, other=0.0).to(tl.float32)
    dy = tl.load(dy_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(part_ptr + row * N + cols, dy * x * tl.load(rstd_ptr + row), mask=mask)


class RMSNorm(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, eps):
        M, N = x.shape
        y = torch.empty((M, N), device=x.device, dtype=x.dtype)
        rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
        block = max(16, triton.next_power_of_2(N))
        if M:
            fwd_kernel[(M,)](x, w, y, rstd, N, x.stride(0), eps, BLOCK_N=block)
        ctx.save_for_backward(x, w, rstd)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w, rstd = ctx.saved_tensors
        M, N = x.shape
        dy = dy.contiguous()
        part = torch.empty((M, N), device=x.device, dtype=torch.float32)
        if M:
            dw_rows_kernel[(M,)](
                dy, x, rstd, part, N, x.stride(0), BLOCK_N=max(16, triton.next_power_of_2(N))
            )
        dw = part.sum(dim=0).to(w.dtype)
        r = rstd[:, None]
        x_hat = x.float() * r
        g = dy.float() * w.float()
        dx = (r * (g - x_hat * (g * x_hat).mean(dim=1, keepdim=True))).to(x.dtype)
        return dx, dw, None


def rms_norm(x, weight, eps=1e-6):
    if x.dim() != 2 or weight.dim() != 1 or weight.shape[0] != x.shape[1]:
        raise ValueError("expected x [M, N] and weight [N]")
    if x.device != weight.device:
        raise ValueError("x and weight are on different devices")
    if x.dtype != weight.dtype:
        raise TypeError("x and weight have different dtypes")
    if x.stride(-1) != 1:
        raise ValueError("x must have unit stride along its rows")
    return RMSNorm.apply(x, weight.contiguous(), eps)
