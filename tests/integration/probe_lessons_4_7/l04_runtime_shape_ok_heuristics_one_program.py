# ruff: noqa
# Correct but different: @triton.heuristics sets BLOCK_SIZE = next_power_of_2(n_elements) (capped), and the
# grid still covers the tail with cdiv; n_elements stays a runtime argument.  Teacher: PASS.
import torch
import triton
import triton.language as tl


@triton.heuristics({"BLOCK_SIZE": lambda args: min(4096, triton.next_power_of_2(args["n_elements"]))})
@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * x, mask=mask)


def square(x, BLOCK_SIZE=1024):
    output = torch.empty_like(x)
    n = x.numel()
    square_kernel[lambda META: (triton.cdiv(n, META["BLOCK_SIZE"]),)](x, output, n)
    return output
