"""Probe round 8, 5/add, WRONG: the learner masks both loads (with other=0.0) but "guards" the store with tl.where
on the VALUE instead of a mask: tl.store(output_ptr + offsets, tl.where(mask, x + y, 0.0)). The stored value of the
tail lanes is 0, but the store itself is unmasked, so the last program writes zeros past the end of the output.
tl.where chooses a value; only mask= stops an access. Right verdict: FAIL, out of bounds on the tl.store line (a write
past the output's end), and the message should say the store needs mask=.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, tl.where(mask, x + y, 0.0))


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
