"""Lesson 3: every program writes its own program id into the block of elements it owns.

F5 Run shows the result as a map: which program wrote which element, and '?' where no program wrote.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def program_map_kernel(
    out_ptr,  # pointer to the first element of the int32 output map
    n_elements,  # length of the map
    BLOCK_SIZE: tl.constexpr,  # elements per program
):
    pid = tl.program_id(axis=0)
    if pid * BLOCK_SIZE >= n_elements:
        return
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    values = tl.full((BLOCK_SIZE,), pid, dtype=tl.int32)
    tl.store(out_ptr + offsets, values, mask=mask)


def program_map(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    # Uninitialised, like torch.empty_like in the tutorials: the lab shows an element no program wrote as '?'.
    out = torch.empty((n_elements,), dtype=torch.int32, device=x.device)
    grid = (n_elements // BLOCK_SIZE + 1,)
    program_map_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
