"""Probe round 7, 4/fix-oob, WRONG: the learner "guards" the tail with tl.where instead of a mask: the load is
still unmasked (it reads past the end of x on the last program), the out-of-range lanes are then zeroed with
tl.where, and only the store gets a mask. tl.where selects values after the access; it does not stop the access.
Right verdict: FAIL, out of bounds on the tl.load line (a read of x past its end), not on the store or tl.where.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    in_range = offsets < n_elements
    x = tl.load(x_ptr + offsets)
    x = tl.where(in_range, x, 0.0)
    tl.store(output_ptr + offsets, tl.maximum(x, 0.0), mask=in_range)


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    relu_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
