"""Lesson 2: fuse an eight-kernel eager formula into one launch.

GPT-2's tanh-approximated GELU, written the eager way (gelu_tanh_eager below), launches eight kernels
and writes seven temporary tensors. Write it as one Triton kernel, verify it (F6), then benchmark both
(F7) at a tiny size and a huge one: which bottleneck does fusion remove at each size?
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def gelu_tanh_kernel(
    x_ptr,  # pointer to the first element of the input
    y_ptr,  # pointer to the first element of the output
    n_elements,  # number of elements
    BLOCK_SIZE: tl.constexpr,  # how many elements one program handles
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    t = 2.0 * tl.sigmoid(2.0 * u) - 1.0
    y = x * (1.0 + t)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu_tanh(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("gelu_tanh expects a contiguous tensor")
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    gelu_tanh_kernel[grid](x, y, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return y


def gelu_tanh_eager(x: torch.Tensor) -> torch.Tensor:
    """The same formula in eager PyTorch: eight launches, seven temporaries."""
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
