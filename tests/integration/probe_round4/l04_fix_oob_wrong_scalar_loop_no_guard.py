"""Learner: rewrites the kernel as a scalar loop over its block, one tl.load/tl.store per element, with no check against n_elements."""

import torch
import triton
import triton.language as tl


@triton.jit
def relu_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements in x
    BLOCK_SIZE: tl.constexpr,  # elements per program
):
    pid = tl.program_id(axis=0)
    for i in range(BLOCK_SIZE):
        idx = pid * BLOCK_SIZE + i
        v = tl.load(x_ptr + idx)
        tl.store(output_ptr + idx, tl.maximum(v, 0.0))


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    relu_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
