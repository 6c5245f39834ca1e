"""Learner (wrong): prints a warning and returns None for bad input instead of raising."""

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
    problem = None
    if x.device != y.device:
        problem = f"x is on {x.device} but y is on {y.device}"
    elif x.shape != y.shape:
        problem = f"shapes differ: {tuple(x.shape)} vs {tuple(y.shape)}"
    elif x.dtype != y.dtype:
        problem = f"dtypes differ: {x.dtype} vs {y.dtype}"
    elif not (x.is_contiguous() and y.is_contiguous()):
        problem = "x and y must be contiguous"
    if problem is not None:
        print("add: refusing input:", problem)
        return None
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
