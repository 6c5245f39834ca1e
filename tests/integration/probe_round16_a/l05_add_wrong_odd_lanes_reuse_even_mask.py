"""Lesson 5, a learner's version: even and odd lanes, but the odd lanes reuse the even lanes' mask."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    even = pid * (2 * BLOCK_SIZE) + 2 * tl.arange(0, BLOCK_SIZE)
    odd = even + 1
    mask = even < n_elements
    xe = tl.load(x_ptr + even, mask=mask)
    ye = tl.load(y_ptr + even, mask=mask)
    xo = tl.load(x_ptr + odd, mask=mask)
    yo = tl.load(y_ptr + odd, mask=mask)
    tl.store(output_ptr + even, xe + ye, mask=mask)
    tl.store(output_ptr + odd, xo + yo, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, 2 * meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=512)
    return output
