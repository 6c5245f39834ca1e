"""Probe round 16b, 8/softmax, CORRECT: the log-sum-exp form. After the max and the shifted sum, the row's
log-sum-exp lse = max + log(sum) is formed and the output is exp(x - lse) (a second exp instead of a division):
the form a log-softmax or a cross-entropy kernel reuses. Padding lanes load -inf (exp(-inf - lse) = 0); int64
row offsets; the output pointer uses both of out's strides. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(
    output_ptr,
    input_ptr,
    input_row_stride,
    input_col_stride,
    output_row_stride,
    output_col_stride,
    n_cols,
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(axis=0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    x = tl.load(
        input_ptr + row * input_row_stride + cols * input_col_stride, mask=mask, other=-float("inf")
    ).to(tl.float32)
    row_max = tl.max(x, axis=0)
    total = tl.sum(tl.exp(x - row_max), axis=0)
    lse = row_max + tl.log(total)
    out = tl.exp(x - lse)
    tl.store(
        output_ptr + row * output_row_stride + cols * output_col_stride,
        out.to(output_ptr.dtype.element_ty),
        mask=mask,
    )


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 4 if BLOCK_SIZE < 2048 else (8 if BLOCK_SIZE < 4096 else 16)
    softmax_kernel[(n_rows,)](
        out,
        x,
        x.stride(0),
        x.stride(1),
        out.stride(0),
        out.stride(1),
        n_cols,
        BLOCK_SIZE=BLOCK_SIZE,
        num_warps=num_warps,
    )
    return out
