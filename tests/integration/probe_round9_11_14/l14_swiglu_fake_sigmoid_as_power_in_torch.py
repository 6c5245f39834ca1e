"""Learner (a shortcut that fakes the exercise): the gate is computed in the wrapper with the textbook sigmoid,
written with Python's ** on a tensor,

    g = a32 / (1 + math.e ** (-a32))          # silu(a) in fp32: math.e ** t is torch.pow(e, t)

and a Triton kernel only multiplies g by b and rounds once. The nonlinearity (the exercise's whole point: exp,
sigmoid, silu) ran in torch on the input a; the kernel loads an input (b) and writes every element.

Right verdict: FAIL — torch computed silu(a) (as pow/div), not the kernel; the same verdict as F.silu in the
wrapper (torch-work).
"""

import math

import torch
import triton
import triton.language as tl


@triton.jit
def _gate_mul_kernel(g_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    g = tl.load(g_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (g * b).to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError("a and b must have one shape")
    if a.dtype != b.dtype:
        raise TypeError("a and b must have one dtype")
    if a.device != b.device:
        raise ValueError("a and b must be on one device")
    a32 = a.float()
    g = (a32 / (1 + math.e ** (-a32))).contiguous()
    b = b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n:
        _gate_mul_kernel[(triton.cdiv(n, 1024),)](g, b, c, n, BLOCK=1024)
    return c
