# expect: tampered
# ruff: noqa  (a hostile learner file: its oddities are the point)
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def sub_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) - tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def noop_kernel(a_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    tl.load(a_ptr + offs, mask=offs < n)


@triton.jit
def zero_kernel(out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    zero = tl.zeros([BLOCK], dtype=tl.float32)
    tl.store(out_ptr + offs, zero.to(out_ptr.dtype.element_ty), mask=offs < n)


def grid(n):
    return (triton.cdiv(n, 256),)


def check(x, y):
    if x.device != y.device:
        raise ValueError("x and y are on different devices")

import sys

# torch computes the answer beside a launch that writes nothing, and the file rewrites the runner's own
# recording (the provenance facts and the launch list) to claim a kernel wrote every element.
from tritonlab.engine.tasks import verify_runner as _runner

_runner.Provenance.facts = lambda self, got: {"from_launch": True, "not_stored": 0, "after_changed": 0}


def add(x, y):
    check(x, y)
    out = torch.empty_like(x)
    noop_kernel[grid(x.numel())](out, x.numel(), BLOCK=256)
    out.copy_(x + y)
    return out
