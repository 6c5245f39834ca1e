# ruff: noqa
# WRONG: offsets ignore program_id (every program works on the first block); masked, so nothing goes out of
# bounds, but everything past the first BLOCK_SIZE elements is never written.  Teacher: FAIL wherever n > BLOCK_SIZE
# (elements unwritten, "all programs wrote the same block"), the cause being the offsets line (line 12).
import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, output_ptr, a, b, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * a + b, mask=mask)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    scale_shift_kernel[grid](x, output, a, b, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
