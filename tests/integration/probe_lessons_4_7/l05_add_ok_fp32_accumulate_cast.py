# ruff: noqa
# Correct but different: loads with mask and other=0, sums in fp32, casts back to the output's element
# type; grid computed as (n + B - 1) // B; keyword launch args; device check raises RuntimeError; n = 0
# returns early without a launch.  Teacher: PASS (n=0 needs no kernel).
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    tl.store(output_ptr + offsets, (x + y).to(output_ptr.dtype.element_ty), mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise RuntimeError(f"x is on {x.device}, y is on {y.device}")
    output = torch.empty_like(x)
    n = output.numel()
    if n == 0:
        return output
    BLOCK_SIZE = 2048
    add_kernel[((n + BLOCK_SIZE - 1) // BLOCK_SIZE,)](
        x_ptr=x, y_ptr=y, output_ptr=output, n_elements=n, BLOCK_SIZE=BLOCK_SIZE, num_warps=8
    )
    return output
