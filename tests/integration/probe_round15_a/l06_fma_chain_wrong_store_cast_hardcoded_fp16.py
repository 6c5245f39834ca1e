"""Probe round 15a, 6/fma-chain, WRONG: the store rounds to a hard-coded `tl.float16` instead of the output's
dtype (a learner who tested only fp16). The fp16 cases are right; for a float32 output the values are fp16
numbers (relative error up to 2**-11, beyond the fp32 tolerance of 1e-5). Right verdict: FAIL on the float32
cases, saying the output holds fp16-rounded values, at the store (line 20)."""

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
        y = y * 0.5 + x
    tl.store(output_ptr + offsets, y.to(tl.float16), mask=mask)


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
