"""Probe round 7, 5/add, CORRECT: no mask anywhere. The learner clamps the offsets to the last element
(tl.minimum(offsets, n_elements - 1)) for both loads AND the store: the lanes past the end all load x[n-1] and
y[n-1] and store the same sum into out[n-1], which every one of them computes identically. Nothing is read or
written out of bounds and every output element holds x + y (several lanes of one store writing one identical
value to one address is well defined on a GPU). Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    safe = tl.minimum(offsets, n_elements - 1)  # the tail lanes all point at the last element
    x = tl.load(x_ptr + safe)
    y = tl.load(y_ptr + safe)
    tl.store(output_ptr + safe, x + y)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
