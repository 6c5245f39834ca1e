"""Probe round 17a, 3/program-map, WRONG: the map is allocated with `torch.empty_like(x)`, so it takes x's
dtype (float32 or float16) instead of int32. The kernel is right: the int32 program ids are converted on store,
so every value is right (pid < 64 is exact even in float16) but the map's dtype is not."""

import torch
import triton
import triton.language as tl


@triton.jit
def program_map_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    values = tl.full((BLOCK_SIZE,), pid, dtype=tl.int32)
    tl.store(out_ptr + offsets, values, mask=mask)


def program_map(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    out = torch.empty_like(x)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    program_map_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
