"""Probe round 7, 3/grid-size, CORRECT: the number of blocks is computed once, by @triton.heuristics, as a
constexpr NUM_BLOCKS = cdiv(n_elements, BLOCK_SIZE), and the grid lambda reads it from meta (Triton hands the
heuristics' values to the grid function). The grid is exactly cdiv(n, BLOCK). Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.heuristics({"NUM_BLOCKS": lambda args: triton.cdiv(args["n_elements"], args["BLOCK_SIZE"])})
@triton.jit
def block_length_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr, NUM_BLOCKS: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    length = tl.minimum(n_elements - block_start, BLOCK_SIZE)
    tl.store(out_ptr + pid, length, mask=pid < NUM_BLOCKS)


def elements_per_program(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    out = torch.empty_like(x[::BLOCK_SIZE], dtype=torch.int32)
    grid = lambda meta: (meta["NUM_BLOCKS"],)  # noqa: E731
    block_length_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
