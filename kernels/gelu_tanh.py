"""Lesson 2 reference: the tanh-approximated GELU (GPT-2's "new GELU") as one fused kernel.

Written in eager PyTorch the formula launches eight kernels and moves 18 tensors' worth of bytes
(10 reads, 8 writes). Fused, it is one launch that reads x once and writes y once.
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
    # Each line below is one whole eager kernel launch; here it is a few register instructions.
    inner = 0.7978845608028654 * (x + 0.044715 * x * x * x)  # sqrt(2/pi) * (x + 0.044715 x^3)
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0  # tanh(u) = 2*sigmoid(2u) - 1
    y = 0.5 * x * (1.0 + t)
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
