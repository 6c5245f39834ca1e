"""Learner (wrong): the mask compares the offsets with the grid's extent, tl.num_programs(0) * BLOCK_SIZE ("stay
inside the blocks we launched"), instead of with n_elements. Every lane of the launched blocks passes, so the last
program stores past the end of the map whenever n is not a multiple of BLOCK_SIZE.
Right verdict: FAIL — an out-of-bounds store on the tl.store line (n = 1, 15, 17, 97, 1000), naming the mask."""

import torch
import triton
import triton.language as tl


@triton.jit
def program_map_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < tl.num_programs(0) * BLOCK_SIZE
    values = tl.full((BLOCK_SIZE,), pid, dtype=tl.int32)
    tl.store(out_ptr + offsets, values, mask=mask)


def program_map(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    out = torch.empty((n_elements,), dtype=torch.int32, device=x.device)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    program_map_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
