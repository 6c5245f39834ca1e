"""Probe round 13, 14/swiglu, FAKE: silu(a) is computed by torch in a helper whose code object was renamed
(`_gate.__code__ = _gate.__code__.replace(co_filename=os.__file__)`), so its frame looks like os.py's;
the kernel only multiplies by b. Right verdict: FAIL (torch-work: silu on a)."""

import os

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(g_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    g = tl.load(g_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (g * b).to(c_ptr.dtype.element_ty), mask=mask)


def _gate(a):
    return F.silu(a.float())


# the helper's code object says it lives in os.py: to the lab its torch call is nobody's line
_gate.__code__ = _gate.__code__.replace(co_filename=os.__file__)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError("a and b must have one shape")
    if a.dtype != b.dtype:
        raise TypeError("a and b must have one dtype")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    g = _gate(a)
    swiglu_kernel[(triton.cdiv(n, 256),)](g, b, c, n, BLOCK_SIZE=256)
    return c
