# ruff: noqa
# WRONG: off-by-one mask (offsets <= n_elements): the lane at offset n_elements reads and writes one element
# past the end.  Teacher: FAIL, out-of-bounds access at the load (line 14), the cause being the <= in the mask.
import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, output_ptr, a, b, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets <= n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * a + b, mask=mask)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    scale_shift_kernel[grid](x, output, a, b, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
