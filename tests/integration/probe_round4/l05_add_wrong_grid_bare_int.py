"""Learner: passes the grid as a bare int instead of a tuple."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(
    x_ptr,  # pointer to the first input vector
    y_ptr,  # pointer to the second input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements in each vector
    BLOCK_SIZE: tl.constexpr,  # elements handled by one program; a compile-time constant
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements  # the last program may run past the end
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # Validate before anything is allocated or launched: most bad inputs would not fail in the kernel,
    # they would silently give a wrong answer. Devices are compared with each other, never with "cuda",
    # so the same wrapper runs on a GPU and on Triton's CPU interpreter.
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    if x.shape != y.shape:
        raise ValueError(f"shapes differ: {tuple(x.shape)} vs {tuple(y.shape)}")
    if x.dtype != y.dtype:
        raise TypeError(f"dtypes differ: {x.dtype} vs {y.dtype}")
    if not (x.is_contiguous() and y.is_contiguous()):
        raise ValueError("x and y must be contiguous: the kernel reads them as flat arrays")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = triton.cdiv(n_elements, 1024)
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
