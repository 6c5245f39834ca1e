"""Probe round 15a, 4/fix-oob, WRONG: the learner folds the relu into the store mask ("only positive values
need writing"): `mask=mask & (x > 0)` stores x where x > 0 and never writes the other elements, which keep
whatever torch.empty_like left there. The bounds are right (no out-of-bounds access). Right verdict: FAIL,
the elements where x <= 0 are never written, naming the store's mask (line 19)."""

import torch
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    # relu keeps the positive values; the rest are zero, so they need no store
    positive = mask & (x > 0)
    tl.store(output_ptr + offsets, x, mask=positive)


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    relu_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
