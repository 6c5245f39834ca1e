"""Learner (correct, different): Unsloth-style pointer bumping. Each program moves its own copy of out_ptr to
the start of its block (out_ptr += pid * BLOCK_SIZE) and shrinks the length to what is left from there, so the
offsets and the mask are the plain tl.arange(0, BLOCK_SIZE) < remaining. The id is broadcast with
tl.zeros(...) + pid.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def program_map_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    out_ptr += pid * BLOCK_SIZE
    remaining = n_elements - pid * BLOCK_SIZE
    lanes = tl.arange(0, BLOCK_SIZE)
    values = tl.zeros((BLOCK_SIZE,), dtype=tl.int32) + pid
    tl.store(out_ptr + lanes, values, mask=lanes < remaining)


def program_map(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    out = torch.empty((n_elements,), dtype=torch.int32, device=x.device)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    program_map_kernel[grid](out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
