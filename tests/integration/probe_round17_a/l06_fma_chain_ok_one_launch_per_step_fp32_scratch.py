"""Probe round 17a, 6/fma-chain, CORRECT: the chain is unrolled on the host, one launch per step. A float32
scratch y is filled from x by a first launch (STEP=False), each of the `degree` launches does y = 0.5 * y + x
in place (STEP=True), and a last launch (STEP=False) converts y into the output's dtype: degree + 2 launches
of one kernel, the same float32 arithmetic as the single-launch loop."""

import torch
import triton
import triton.language as tl


@triton.jit
def fma_step_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr, STEP: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    if STEP:
        x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
        y = y * 0.5 + x
    tl.store(out_ptr + offsets, y.to(out_ptr.dtype.element_ty), mask=mask)


def fma_chain(x: torch.Tensor, degree: int, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("fma_chain expects a contiguous tensor")
    if degree < 0:
        raise ValueError(f"degree must be >= 0, got {degree}")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    y = torch.empty(x.shape, dtype=torch.float32, device=x.device)
    grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
    opts = dict(BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    fma_step_kernel[grid](x, x, y, n_elements, STEP=False, **opts)  # y = x, in float32
    for _ in range(degree):
        fma_step_kernel[grid](x, y, y, n_elements, STEP=True, **opts)  # y = 0.5 * y + x
    fma_step_kernel[grid](x, y, output, n_elements, STEP=False, **opts)  # output = y, in x's dtype
    return output
