"""Probe round 17a, 4/scale-shift, CORRECT: the programs walk x from its end. Program pid's lanes are
offsets = (n - 1) - (pid * BLOCK_SIZE + arange), so program 0 owns the last BLOCK_SIZE elements and the
partial block sits at the front; the mask is therefore `offsets >= 0`, not `offsets < n`."""

import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, output_ptr, a, b, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = (n_elements - 1) - (pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE))
    mask = offsets >= 0
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * a + b, mask=mask)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    scale_shift_kernel[grid](x, output, a, b, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
