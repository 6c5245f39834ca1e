"""Probe round 17a, 5/add, WRONG: the kernel is right, but the launch passes its pointers in the wrong order,
`add_kernel[grid](x, output, y, ...)` for a kernel declared (x_ptr, y_ptr, output_ptr, ...): the kernel reads
the fresh torch.empty_like buffer as y and writes x + that garbage into the caller's y. The returned output is
never written."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, output, y, n_elements, BLOCK_SIZE=1024)
    return output
