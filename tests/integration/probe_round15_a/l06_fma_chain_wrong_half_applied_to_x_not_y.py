"""Probe round 15a, 6/fma-chain, WRONG: the loop body halves the wrong operand: `y = x * 0.5 + y` (the learner
read "0.5 * y + x" with the roles swapped). After k steps y = (1 + k/2) x instead of (2 - 0.5**k) x; the two
agree at k = 0 and k = 1, so the cases with degree 0 and 1 pass and degree 3 and 16 fail (a constant factor:
2.5/1.875 and 9/1.99998). Right verdict: FAIL, pointing at the loop body (line 19)."""

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
        y = x * 0.5 + y
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
