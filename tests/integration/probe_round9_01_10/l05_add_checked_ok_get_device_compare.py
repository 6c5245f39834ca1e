"""Learner (correct? debatable): the device check compares x.get_device() with y.get_device() (the device
index, -1 for a CPU tensor), the idiom of some CUDA extension code. It tells cuda:0 from cuda:1 and a CUDA tensor
from a CPU one; it does not tell two non-CUDA devices apart (cpu and meta are both -1). Everything else is the
hint's four checks, ValueError/TypeError, before allocating.
Right verdict: on a GPU (x on cuda, y on the CPU) the reject case raises; on the interpreter the lab's "other"
device for a CPU x is meta, which get_device() cannot tell from the CPU."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.get_device() != y.get_device():
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    if x.shape != y.shape:
        raise ValueError(f"shapes differ: {tuple(x.shape)} vs {tuple(y.shape)}")
    if x.dtype != y.dtype:
        raise TypeError(f"dtypes differ: {x.dtype} vs {y.dtype}")
    if not (x.is_contiguous() and y.is_contiguous()):
        raise ValueError("x and y must be contiguous")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
