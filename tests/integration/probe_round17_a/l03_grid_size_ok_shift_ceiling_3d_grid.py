"""Probe round 17a, 3/grid-size, CORRECT: BLOCK_SIZE is a power of two, so the wrapper divides by shifting:
num_programs = (n + BLOCK_SIZE - 1) >> log2(BLOCK_SIZE), and launches a full 3-tuple grid (num_programs, 1, 1).
The kernel is the starter's."""

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
    if BLOCK_SIZE & (BLOCK_SIZE - 1):
        raise ValueError(f"BLOCK_SIZE must be a power of two, got {BLOCK_SIZE}")
    n_elements = x.numel()
    shift = BLOCK_SIZE.bit_length() - 1  # log2(BLOCK_SIZE)
    num_programs = (n_elements + BLOCK_SIZE - 1) >> shift
    out = torch.empty_like(x[::BLOCK_SIZE], dtype=torch.int32)
    block_length_kernel[(num_programs, 1, 1)](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
