"""Learner: one tuple comparison for device, shape and dtype, one ValueError naming both sides."""

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
    mine, theirs = (x.device, tuple(x.shape), x.dtype), (y.device, tuple(y.shape), y.dtype)
    if mine != theirs:
        raise ValueError(f"x is {mine} but y is {theirs}: device, shape and dtype must all match")
    if not x.is_contiguous() or not y.is_contiguous():
        raise ValueError(f"non-contiguous input: x strides {x.stride()}, y strides {y.stride()}")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
