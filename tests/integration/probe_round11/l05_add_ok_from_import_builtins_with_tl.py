"""Learner: imports the builtins by name, `from triton.language import program_id, arange, load, store`
(keeping `import triton.language as tl` for tl.constexpr), and calls them unqualified in the kernel — valid
Triton: the GPU code generator accepts a global that is a builtin.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl
from triton.language import arange, load, program_id, store


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = program_id(axis=0)
    offsets = pid * BLOCK_SIZE + arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = load(x_ptr + offsets, mask=mask)
    y = load(y_ptr + offsets, mask=mask)
    store(out_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.shape != y.shape or x.device != y.device or x.dtype != y.dtype:
        raise ValueError("x and y must match in shape, device and dtype")
    out = torch.empty_like(x)
    n = out.numel()
    if n:
        add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
    return out
