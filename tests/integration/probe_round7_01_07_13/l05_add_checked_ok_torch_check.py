"""Probe round 7, 5/add-checked, CORRECT: the checks use PyTorch's own helpers, the way torch's operators
validate: torch._check(cond, lambda: msg) raises RuntimeError, torch._check_type raises TypeError (both in
refuse_with; neither is removed by python -O). Device, whole shape, dtype and contiguity of both inputs are
checked before anything is allocated. Right verdict: PASS (every reject case refused).
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
    torch._check(x.device == y.device, lambda: f"x is on {x.device} but y is on {y.device}")
    torch._check(x.shape == y.shape, lambda: f"shapes differ: x {tuple(x.shape)}, y {tuple(y.shape)}")
    torch._check_type(x.dtype == y.dtype, lambda: f"dtypes differ: x {x.dtype}, y {y.dtype}")
    torch._check(
        x.is_contiguous() and y.is_contiguous(),
        lambda: f"x and y must be contiguous (strides {x.stride()} and {y.stride()})",
    )
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
