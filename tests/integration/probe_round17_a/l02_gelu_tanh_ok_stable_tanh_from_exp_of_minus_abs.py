"""Probe round 17a, 2/gelu-tanh, CORRECT: the constants are folded (u = x * (c0 + c1 * x * x) with
c1 = 0.044715 * sqrt(2 / pi)) and tanh is written the overflow-free way: e = exp(-2|u|) is always in (0, 1],
tanh(|u|) = (1 - e) / (1 + e), and the sign is put back with tl.where."""

import math

import torch
import triton
import triton.language as tl

C0 = 0.7978845608028654  # sqrt(2 / pi)
C1 = 0.7978845608028654 * 0.044715


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n_elements, C0, C1, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    u = x * (C0 + C1 * x * x)
    e = tl.exp(-2.0 * tl.abs(u))  # never overflows: the exponent is <= 0
    t_abs = (1.0 - e) / (1.0 + e)
    t = tl.where(u < 0, -t_abs, t_abs)
    y = 0.5 * x * (1.0 + t)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu_tanh(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("gelu_tanh expects a contiguous tensor")
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    gelu_tanh_kernel[grid](x, y, n_elements, C0, C1, BLOCK_SIZE=BLOCK_SIZE)
    return y


def gelu_tanh_eager(x: torch.Tensor) -> torch.Tensor:
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))
