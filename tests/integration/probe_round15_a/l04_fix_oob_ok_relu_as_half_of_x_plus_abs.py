"""Probe round 15a, 4/fix-oob, CORRECT: relu(x) written as (x + |x|) / 2 (exact in binary floating point for
the lab's magnitudes: x + |x| is 2x or 0), the masked-off lanes loaded with other=-1.0 (never stored), the mask
kept as a named helper @triton.jit function. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def _in_bounds(offsets, n_elements):
    return offsets < n_elements


@triton.jit
def relu_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = _in_bounds(offsets, n_elements)
    x = tl.load(x_ptr + offsets, mask=mask, other=-1.0)
    y = (x + tl.abs(x)) * 0.5
    tl.store(output_ptr + offsets, y, mask=mask)


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    relu_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
