# ruff: noqa
# WRONG (what hint 2 warns against): n_elements made a tl.constexpr and used as the arange length, one program.
# Compiles for n=1 (a power of two) but tl.arange needs a power-of-two length, so n=97 fails to compile.
# Teacher: FAIL, the arange line (line 12), saying the length must be a power of two / use a constexpr BLOCK_SIZE.
import torch
import triton
import triton.language as tl


@triton.jit
def square_kernel(x_ptr, output_ptr, n_elements: tl.constexpr):
    offsets = tl.arange(0, n_elements)
    x = tl.load(x_ptr + offsets)
    tl.store(output_ptr + offsets, x * x)


def square(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = output.numel()
    square_kernel[(1,)](x, output, n_elements)
    return output
