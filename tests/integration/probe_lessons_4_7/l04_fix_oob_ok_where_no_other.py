# ruff: noqa
# Correct but different: masked load WITHOUT other= (masked lanes are undefined, but never stored),
# tl.where(x > 0, x, 0) instead of tl.maximum, grid via a lambda over meta, BLOCK_SIZE=128.  Teacher: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.where(x > 0, x, 0.0)
    tl.store(output_ptr + offsets, y, mask=mask)


def relu(x: torch.Tensor, BLOCK_SIZE: int = 128) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous")
    output = torch.empty_like(x)
    n_elements = output.numel()
    relu_kernel[lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)](
        x_ptr=x, output_ptr=output, n_elements=n_elements, BLOCK_SIZE=BLOCK_SIZE
    )
    return output
