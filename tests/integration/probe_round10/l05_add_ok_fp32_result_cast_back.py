"""Learner: the kernel adds in float32 into a float32 buffer (`torch.empty(n, dtype=torch.float32,
device=x.device)`), and the wrapper returns `out32.to(x.dtype)` — the one rounding done by torch's cast, as the
lessons' own reference strings do it ((...).to(a.dtype)). For float32 inputs the cast returns the kernel's buffer.

Right verdict: PASS (a cast is a copy of the kernel's values, as torch-work counts casts).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask).to(tl.float32)
    tl.store(out_ptr + offsets, x + y, mask=mask)


def add(x, y):
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    n = x.numel()
    out32 = torch.empty(n, dtype=torch.float32, device=x.device)
    if n > 0:
        add_kernel[(triton.cdiv(n, 1024),)](x, y, out32, n, BLOCK_SIZE=1024)
    return out32.to(x.dtype)
