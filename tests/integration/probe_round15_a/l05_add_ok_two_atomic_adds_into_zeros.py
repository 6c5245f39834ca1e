"""Probe round 15a, 5/add, CORRECT: the output starts as zeros and each program adds x, then y, into its own
block with tl.atomic_add (relaxed). Every element is touched by one program only, 0 + x is exact, and
(0 + x) + y rounds once, as x + y does. Right verdict: PASS."""

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
    tl.atomic_add(output_ptr + offsets, x, mask=mask, sem="relaxed")
    tl.atomic_add(output_ptr + offsets, y, mask=mask, sem="relaxed")


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    output = torch.zeros_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=512)
    return output
