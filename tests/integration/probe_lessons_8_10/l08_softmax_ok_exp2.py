# ruff: noqa
# CORRECT-BUT-DIFFERENT: the five-step softmax with exp2 and log2(e) scaling (what fast kernels do), and
# out = numerator * (1 / denominator). Teacher expects: PASS.
import torch
import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    input_col_stride,
    output_row_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row_idx = tl.program_id(axis=0)
    offs = tl.arange(0, BLOCK_SIZE)
    mask = offs < n_cols
    x = tl.load(
        input_ptr + row_idx * input_row_stride + offs * input_col_stride, mask=mask, other=float("-inf")
    )
    x = x.to(tl.float32) * 1.4426950408889634
    z = x - tl.max(x, axis=0)
    num = tl.math.exp2(z)
    inv = 1.0 / tl.sum(num, axis=0)
    tl.store(
        output_ptr + row_idx * output_row_stride + offs,
        (num * inv).to(output_ptr.dtype.element_ty),
        mask=mask,
    )


def softmax(x):
    if x.dim() != 2:
        raise ValueError("2D only")
    if not x.is_floating_point():
        raise TypeError("float only")
    n_rows, n_cols = x.shape
    y = torch.empty_like(x, memory_format=torch.contiguous_format)
    if y.numel() == 0:
        return y
    softmax_kernel[(n_rows,)](
        y, x, x.stride(0), x.stride(1), y.stride(0), n_cols, BLOCK_SIZE=triton.next_power_of_2(n_cols)
    )
    return y
