"""Learner: the kernel writes a float64 buffer (adds in float64); the wrapper allocates the result with
`torch.empty_like(x)` and fills it with `res.copy_(out64.type_as(x))` — a `.type_as` cast, then a copy_ of
that cast into a preallocated output of the input's dtype.

Right verdict: PASS (rounding float64 sums to the input dtype once is exact-or-better than adding in it).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float64)
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float64)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.shape != y.shape or x.device != y.device or x.dtype != y.dtype:
        raise ValueError("x and y must match in shape, device and dtype")
    n = x.numel()
    out64 = torch.empty(n, dtype=torch.float64, device=x.device)
    if n:
        add_kernel[(triton.cdiv(n, 512),)](x, y, out64, n, BLOCK_SIZE=512)
    res = torch.empty_like(x)
    res.copy_(out64.type_as(x))
    return res
