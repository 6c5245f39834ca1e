# ruff: noqa
# WRONG: an over-strict wrapper that rejects any view with a storage offset (the lab's y is a contiguous view
# 3 elements into a bigger buffer, which is valid input).  Teacher: FAIL on the normal cases with "raised on
# valid input" naming the raise on line 28; the reject cases pass.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError("devices differ")
    if x.shape != y.shape:
        raise ValueError("shapes differ")
    if x.dtype != y.dtype:
        raise TypeError("dtypes differ")
    if not x.is_contiguous() or not y.is_contiguous() or x.storage_offset() or y.storage_offset():
        raise ValueError("x and y must be contiguous")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
