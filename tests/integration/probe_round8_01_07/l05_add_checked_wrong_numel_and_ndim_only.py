"""Probe round 8, 5/add-checked, WRONG: the shape check is two weaker checks: the learner compares x.numel() with
y.numel() and x.dim() with y.dim(), believing that together they mean "same shape". They do not: x of shape (4, 25)
and y of shape (25, 4) have the same number of elements and the same number of dimensions, yet x + y is not an
element-wise sum of them (torch refuses to broadcast them), and this wrapper adds them flat and returns a (4, 25)
result. The TODO asks to raise when "their shapes differ". Device, dtype and contiguity are checked properly.
Right verdict: FAIL (a wrapper that accepts two different shapes), e.g. a refusal case the wrapper accepts.
"""

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
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    if x.numel() != y.numel() or x.dim() != y.dim():
        raise ValueError(f"x has shape {tuple(x.shape)} but y has shape {tuple(y.shape)}")
    if x.dtype != y.dtype:
        raise TypeError(f"x is {x.dtype} but y is {y.dtype}")
    if not (x.is_contiguous() and y.is_contiguous()):
        raise ValueError("x and y must be contiguous")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
