"""Lesson 6 — a tunable copy. Fill in the TODOs, press F6 (Verify), then F7 (Benchmark).

The benchmark sweeps copy(x, BLOCK_SIZE=..., num_warps=...) over many values and also times it
the wrong way (no warm-up, no synchronisation) next to the right way. Read both before you trust either.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(
    x_ptr,  # pointer to the first element of the input
    output_ptr,  # pointer to the first element of the output
    n_elements,  # number of elements to copy
    BLOCK_SIZE: tl.constexpr,  # elements one program copies
):
    pid = tl.program_id(axis=0)
    # TODO: each program must copy ITS block: offsets start at pid * BLOCK_SIZE.
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x, mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    # TODO: use the caller's BLOCK_SIZE, and pass num_warps as a launch option (num_warps=...).
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=1024)
    return output
