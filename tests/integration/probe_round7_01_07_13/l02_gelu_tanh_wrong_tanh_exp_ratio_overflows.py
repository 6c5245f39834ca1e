"""Probe round 7, 2/gelu-tanh, WRONG: tanh(u) written as the textbook ratio (exp(2u) - 1) / (exp(2u) + 1). For
u > ~44.4 exp(2u) overflows float32 to inf and the ratio is inf / inf = NaN, so gelu_tanh(x) is NaN for every
x above ~10.0 (x = 10.1 -> u = 44.7), where torch gives x itself. Activations of 10 and more are common (outlier
features in large models); the exercise's formula has no such hole (tanh saturates to 1).
Right verdict: FAIL with a NaN diagnosis on large inputs (the lab's inputs are randn, |x| < 5: the hole is never
reached unless the cases include large magnitudes).
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
    e = tl.exp(2.0 * u)
    t = (e - 1.0) / (e + 1.0)  # tanh(u)
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
