# ruff: noqa
# Correct but different: one program per row BLOCK of rows with the whole row width in one tile
# (BLOCK_N = next_power_of_2(N) chosen by the wrapper), the sum done in fp32 and cast back, b passed through
# b.contiguous() (a no-op for the lab's offset view), validation with explicit raises.  Teacher: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def bias_add_kernel(
    x_ptr,
    b_ptr,
    output_ptr,
    n_rows,
    n_cols,
    stride_xm,
    stride_xn,
    stride_b,
    stride_om,
    stride_on,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.arange(0, BLOCK_N)
    cmask = cols < n_cols
    mask = (rows[:, None] < n_rows) & cmask[None, :]
    x = tl.load(
        x_ptr + rows[:, None].to(tl.int64) * stride_xm + cols[None, :] * stride_xn, mask=mask, other=0.0
    )
    bias = tl.load(b_ptr + cols * stride_b, mask=cmask, other=0.0)
    out = x.to(tl.float32) + bias.to(tl.float32)[None, :]
    tl.store(output_ptr + rows[:, None] * stride_om + cols[None, :] * stride_on, out.to(x.dtype), mask=mask)


def bias_add(x: torch.Tensor, b: torch.Tensor, BLOCK_M: int = 8, BLOCK_N: int = 64) -> torch.Tensor:
    if x.dim() != 2 or b.dim() != 1:
        raise ValueError("x must be 2D and b 1D")
    if b.numel() != x.shape[1]:
        raise ValueError(f"len(b)={b.numel()} != x.shape[1]={x.shape[1]}")
    if b.device != x.device:
        raise ValueError("x and b on different devices")
    if b.dtype != x.dtype:
        raise TypeError("dtype mismatch")
    b = b.contiguous()
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    block_n = triton.next_power_of_2(N)
    bias_add_kernel[(triton.cdiv(M, BLOCK_M),)](
        x,
        b,
        out,
        M,
        N,
        x.stride(0),
        x.stride(1),
        b.stride(0),
        out.stride(0),
        out.stride(1),
        BLOCK_M=BLOCK_M,
        BLOCK_N=block_n,
    )
    return out
