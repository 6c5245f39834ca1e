"""Learner: int64 program start, tl.maximum against tl.zeros_like(x), a mask computed once from a block end."""

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
    start = tl.program_id(axis=0).to(tl.int64) * BLOCK_SIZE
    offsets = start + tl.arange(0, BLOCK_SIZE)
    valid = tl.arange(0, BLOCK_SIZE) < n_elements - start
    x = tl.load(x_ptr + offsets, mask=valid)
    tl.store(output_ptr + offsets, tl.maximum(x, tl.zeros_like(x)), mask=valid)


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    relu_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
