# ruff: noqa
# WRONG: BLOCK_SIZE reaches the launch but num_warps is hard-coded to 4 (the sweep would time the same
# warps everywhere).  Values are all right.  Teacher: FAIL on the num_warps knob contract only (line 22).
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x, mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=4)
    return output
