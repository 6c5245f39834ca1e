"""Probe round 8, 6/fma-chain, WRONG: the chain's start is inside the loop. The learner writes
`for _ in range(degree): y = x; y = y * 0.5 + x`, so every iteration restarts from x and the loop computes 1.5 * x
whatever the degree (>= 1). degree = 0 (y = x) and degree = 1 (1.5 * x) happen to be right; degree 3 and 16 are not
(the answer there is x * (2 - 0.5 ** degree)). Right verdict: FAIL on the degree >= 2 cases only, a value mismatch;
the diagnosis should point at the loop (the chain does not carry y from one iteration to the next), not at masks.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(x_ptr, output_ptr, n_elements, degree, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = x
    for _ in range(degree):
        y = x
        y = y * 0.5 + x
    tl.store(output_ptr + offsets, y.to(output_ptr.dtype.element_ty), mask=mask)


def fma_chain(x: torch.Tensor, degree: int, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("fma_chain expects a contiguous tensor")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    fma_chain_kernel[grid](x, output, n_elements, degree, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
