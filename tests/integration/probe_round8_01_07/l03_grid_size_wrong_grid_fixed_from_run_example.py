"""Probe round 8, 3/grid-size, WRONG: a grid hard-coded from the Run example. The learner counts the programs for
F5's n = 10, BLOCK_SIZE = 4 on paper (blocks 0-3, 4-7, 8-9: three programs) and writes `grid = (3,)`. F5 then shows
every slot written. In verify, n = 97 with BLOCK_SIZE = 32 needs 4 programs and n = 1000 with 128 needs 8, so slots
stay unwritten; where 3 is more than needed (n = 1 or 16 with BLOCK_SIZE = 16) the extra programs are surplus.
Right verdict: FAIL, and the first diagnosis should say the grid does not depend on n (a fixed number of programs)
and ask for triton.cdiv(n_elements, BLOCK_SIZE).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def block_length_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    length = tl.minimum(n_elements - block_start, BLOCK_SIZE)
    tl.store(out_ptr + pid, length, mask=block_start < n_elements)


def elements_per_program(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    out = torch.empty_like(x[::BLOCK_SIZE], dtype=torch.int32)
    grid = (3,)  # n = 10, BLOCK_SIZE = 4: blocks 0-3, 4-7 and 8-9
    block_length_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
