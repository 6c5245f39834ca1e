"""Learner (wrong): the grid is right (triton.cdiv), but the learner also rewrote the output's allocation with the
"floor plus one" count, torch.empty(n // BLOCK_SIZE + 1, ...), instead of the starter's empty_like(x[::BLOCK_SIZE]).
When n is a multiple of BLOCK_SIZE (n = 16 with BLOCK 16, n = 1024 with BLOCK 128) the output has one slot too many,
which no program writes.
Right verdict: FAIL (shape: one slot more than torch's) in exactly those cases."""

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
    out = torch.empty(n_elements // BLOCK_SIZE + 1, dtype=torch.int32, device=x.device)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    block_length_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
