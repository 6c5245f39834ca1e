"""Probe round 7, 3/program-map, CORRECT: the block of program ids is built with tl.full((BLOCK_SIZE,), pid,
tl.int32), and the program checks itself against tl.cdiv(n_elements, BLOCK_SIZE) computed inside the kernel
(a program past the last block returns at once). The grid is the usual cdiv. Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def program_map_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    if pid >= tl.cdiv(n_elements, BLOCK_SIZE):
        return
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    values = tl.full((BLOCK_SIZE,), pid, tl.int32)
    tl.store(out_ptr + offsets, values, mask=mask)


def program_map(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    out = torch.empty((n_elements,), dtype=torch.int32, device=x.device)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    program_map_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
