"""Lesson 5 — a wrapper that refuses bad input.

The kernel below is finished and correct. The wrapper is not: it launches whatever it is given.
Press F6: the normal cases pass, and the lab then calls add() with inputs a good wrapper must
refuse (mismatched lengths, shapes, dtypes or devices, a non-contiguous view). Make each one raise
a clear Python exception before anything is allocated or launched.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(
    x_ptr,  # pointer to the first input vector
    y_ptr,  # pointer to the second input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements in each vector
    BLOCK_SIZE: tl.constexpr,  # elements handled by one program
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # TODO: validate first. Raise (ValueError or TypeError, with a message that names both values) when
    #   - x and y are on different devices,
    #   - their shapes differ,
    #   - their dtypes differ,
    #   - either is not contiguous (the kernel indexes memory as one flat array).
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
