"""Lesson 6, a learner's version: the wrapper copies in slices of at most 8 blocks, one launch per slice,
each on views x[s:e] and output[s:e]; the knobs reach every launch."""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor")
    output = torch.empty_like(x)
    flat_x, flat_out = x.view(-1), output.view(-1)
    n = flat_x.numel()
    chunk = 8 * BLOCK_SIZE
    for start in range(0, n, chunk):
        stop = min(start + chunk, n)
        piece = stop - start
        grid = (triton.cdiv(piece, BLOCK_SIZE),)
        copy_kernel[grid](
            flat_x[start:stop], flat_out[start:stop], piece, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps
        )
    return output
