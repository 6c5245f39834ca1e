# ruff: noqa
# WRONG: the learner masked the load but not the store: the last program writes past the end of output.
# Teacher: FAIL, out-of-bounds WRITE at the store (line 15), on every n that is not a multiple of 1024.
import torch
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, tl.maximum(x, 0.0))


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    relu_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
