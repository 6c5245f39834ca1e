"""Learner: before launching, the wrapper rejects inputs whose magnitude is out of range with an elementwise torch
check, `(t.float().abs() > 1e4).any()` for a and b (a boolean answer; the float temporaries it makes are freed at
once), then hands the kernel float32 copies of a and b (`t.float()` on the flattened inputs, casts of the inputs'
own values) and a flat view of the output. The kernel computes a * sigmoid(a) * b in float32 and rounds once.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    for name, t in (("a", a), ("b", b)):
        if bool((t.float().abs() > 1e4).any()):
            raise ValueError(f"{name} holds values beyond 1e4")
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    a32 = a.reshape(-1).to(torch.float32, copy=True)
    b32 = b.reshape(-1).to(torch.float32, copy=True)
    swiglu_kernel[(triton.cdiv(n, 1024),)](a32, b32, c.view(-1), n, BLOCK_SIZE=1024)
    return c
