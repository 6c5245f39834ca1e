"""Probe round 7, 4/runtime-shape, WRONG: the learner fixes the compile error by rounding the block up to a power
of two (triton.next_power_of_2(n)) and keeps ONE program for the whole vector, but drops the mask: every lane
from n to the next power of two reads and writes past the end (n = 97 -> 128 lanes, 31 of them out of bounds).
The wrapper also ignores the BLOCK_SIZE it is given. Right verdict: FAIL, out of bounds on the tl.load line
(the first access past the end), for every n that is not a power of two.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offsets)
    tl.store(output_ptr + offsets, x * x)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    block = triton.next_power_of_2(n_elements)  # one block that holds the whole vector
    square_kernel[(1,)](x, output, n_elements, BLOCK_SIZE=block)
    return output
