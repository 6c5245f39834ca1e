"""Probe round 8, 3/program-map, CORRECT: the learner lays the programs out along grid axis 1 instead of axis 0:
the grid is (1, cdiv(n, BLOCK_SIZE)) and the kernel reads its block index with tl.program_id(axis=1). Axis 0 has one
program, so every block still has exactly one program, and that program stores its own block index (the id the
map shows) over its block. Consistent grid and kernel, so the map is the same. Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def program_map_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=1)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    values = tl.full((BLOCK_SIZE,), pid, dtype=tl.int32)
    tl.store(out_ptr + offsets, values, mask=mask)


def program_map(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    out = torch.empty((n_elements,), dtype=torch.int32, device=x.device)
    grid = lambda meta: (1, triton.cdiv(n_elements, meta["BLOCK_SIZE"]))  # noqa: E731
    program_map_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
