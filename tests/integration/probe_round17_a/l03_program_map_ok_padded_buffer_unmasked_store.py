"""Probe round 17a, 3/program-map, CORRECT: no mask at all. The wrapper allocates the map rounded up to whole
blocks (cdiv(n, BLOCK_SIZE) * BLOCK_SIZE int32 slots), every program stores its whole block unmasked, and the
wrapper returns the first n slots, out[:n] (a contiguous view at the start of the padded buffer)."""

import torch
import triton
import triton.language as tl


@triton.jit
def program_map_kernel(out_ptr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    tl.store(out_ptr + offsets, tl.full((BLOCK_SIZE,), pid, dtype=tl.int32))


def program_map(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    num_programs = triton.cdiv(n_elements, BLOCK_SIZE)
    padded = torch.empty((num_programs * BLOCK_SIZE,), dtype=torch.int32, device=x.device)
    program_map_kernel[(num_programs,)](padded, BLOCK_SIZE=BLOCK_SIZE)
    return padded[:n_elements]
