"""Probe round 8, 4/fix-oob, WRONG: the learner guards the whole program instead of each lane. The mask is one
scalar, "is my block entirely inside the tensor?" ((pid + 1) * BLOCK_SIZE <= n_elements), passed to the load and the
store. Nothing goes out of bounds any more, but the last, partial block is never computed: for n = 1023 (and 97, and
1, and 98432 with BLOCK_SIZE = 1024) the tail elements are never written. Right verdict: FAIL, elements never written
(the last block's), and the diagnosis should point at the mask being per-program rather than per-lane
(offsets < n_elements) - not at the grid, which launches the right number of programs.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    full_block = (pid + 1) * BLOCK_SIZE <= n_elements
    x = tl.load(x_ptr + offsets, mask=full_block, other=0.0)
    tl.store(output_ptr + offsets, tl.maximum(x, 0.0), mask=full_block)


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    relu_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
