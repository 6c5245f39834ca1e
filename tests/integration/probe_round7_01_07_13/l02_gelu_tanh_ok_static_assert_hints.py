"""Probe round 7, 2/gelu-tanh, CORRECT: official-tutorial idioms around a right formula. tl.static_assert on the
block size, tl.multiple_of / tl.max_contiguous hints on the offsets, the cube as x * x * x and tanh written as
2 * sigmoid(2u) - 1 (the starter's own hint). Right verdict: PASS.
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    tl.static_assert(BLOCK_SIZE >= 16, "BLOCK_SIZE must be at least 16")
    tl.static_assert((BLOCK_SIZE & (BLOCK_SIZE - 1)) == 0, "BLOCK_SIZE must be a power of two")
    pid = tl.program_id(axis=0)
    block_start = tl.multiple_of(pid * BLOCK_SIZE, BLOCK_SIZE)
    offsets = tl.max_contiguous(block_start + tl.arange(0, BLOCK_SIZE), BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    k: tl.constexpr = 0.7978845608028654  # sqrt(2 / pi)
    u = k * (x + 0.044715 * (x * x * x))
    t = 2.0 * tl.sigmoid(2.0 * u) - 1.0
    y = 0.5 * x * (1.0 + t)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu_tanh(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("gelu_tanh expects a contiguous tensor")
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    gelu_tanh_kernel[grid](x, y, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return y


def gelu_tanh_eager(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
