"""Learner: checks contiguity by comparing the strides with the row-major strides of the shape, written by hand
(a size-1 dimension may have any stride, as torch itself allows)."""

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


def _dense(t: torch.Tensor) -> bool:
    expected = 1
    for size, stride in zip(reversed(t.shape), reversed(t.stride()), strict=False):
        if size != 1 and stride != expected:
            return False
        expected *= size
    return True


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"devices differ: {x.device} and {y.device}")
    if x.size() != y.size():
        raise ValueError(f"sizes differ: {list(x.size())} and {list(y.size())}")
    if x.dtype != y.dtype:
        raise TypeError(f"dtypes differ: {x.dtype} and {y.dtype}")
    if not (_dense(x) and _dense(y)):
        raise ValueError(f"x and y must be dense row-major: strides {x.stride()} and {y.stride()}")
    if x.numel() == 0:
        return torch.empty_like(x)
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
