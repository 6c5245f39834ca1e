"""Probe round 8, 2/gelu-tanh, WRONG: a misplaced parenthesis. The learner writes the inner term as
sqrt(2/pi) * x + 0.044715 * x**3, so the constant multiplies only x and not the cubic correction: the formula is
0.5 * x * (1 + tanh(sqrt(2/pi) * (x + 0.044715 * x**3))). The error grows with |x| (about 3 % of the cubic term is
missing at |x| = 2), and the lab's inputs reach |x| of 10 and more. Right verdict: FAIL, a value mismatch (not NaN,
not a mask or grid problem): the diagnosis should point at the formula.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    inner = 0.7978845608028654 * x + 0.044715 * x * x * x
    t = 2.0 * tl.sigmoid(2.0 * inner) - 1.0
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
