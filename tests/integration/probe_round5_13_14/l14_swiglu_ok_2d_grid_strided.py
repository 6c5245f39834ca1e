"""Learner: a 2D grid (row blocks x column blocks) over a [rows, hidden] view, with strides instead of flattening."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_2d_kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    n_rows,
    n_cols,
    stride_ar,
    stride_br,
    stride_cr,  # row strides; columns are contiguous
    BLOCK_R: tl.constexpr,
    BLOCK_C: tl.constexpr,
):
    rows = tl.program_id(0) * BLOCK_R + tl.arange(0, BLOCK_R)
    cols = tl.program_id(1) * BLOCK_C + tl.arange(0, BLOCK_C)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    a = tl.load(a_ptr + rows[:, None] * stride_ar + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + rows[:, None] * stride_br + cols[None, :], mask=mask, other=0.0).to(tl.float32)
    silu = a / (1.0 + tl.exp(-a))
    tl.store(
        c_ptr + rows[:, None] * stride_cr + cols[None, :], (silu * b).to(c_ptr.dtype.element_ty), mask=mask
    )


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shape mismatch: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtype mismatch: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b live on different devices")
    if a.dtype not in (torch.float32, torch.float16, torch.bfloat16):
        raise TypeError(f"unsupported dtype {a.dtype}")
    out_shape = a.shape
    hidden = a.shape[-1] if a.dim() > 0 else 1
    a2 = a.reshape(-1, hidden)
    b2 = b.reshape(-1, hidden)
    if a2.stride(-1) != 1:
        a2 = a2.contiguous()
    if b2.stride(-1) != 1:
        b2 = b2.contiguous()
    c2 = torch.empty(a2.shape, dtype=a.dtype, device=a.device)
    n_rows, n_cols = a2.shape
    if c2.numel() == 0:
        return c2.reshape(out_shape)
    BLOCK_R, BLOCK_C = 8, 64
    grid = (triton.cdiv(n_rows, BLOCK_R), triton.cdiv(n_cols, BLOCK_C))
    swiglu_2d_kernel[grid](
        a2, b2, c2, n_rows, n_cols, a2.stride(0), b2.stride(0), c2.stride(0), BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C
    )
    return c2.reshape(out_shape)


if __name__ == "__main__":
    import torch.nn.functional as F

    for shape in [(1, 1), (5, 129), (2, 3, 77)]:
        x, y = torch.randn(shape) * 3, torch.randn(shape)
        torch.testing.assert_close(swiglu(x, y), F.silu(x) * y)
    print("ok")
