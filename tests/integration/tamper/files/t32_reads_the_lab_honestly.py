# expect: 
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

# The false-fail side of the integrity check: a correct kernel in a file that imports and reads the lab's
# modules (even calls them) and monkeypatches only its own things must pass.
import inspect

from tritonlab.engine import inputs as _inputs
from tritonlab.engine.tasks import verify_runner as _runner

_SOURCE_LINES = len(inspect.getsource(_runner.Provenance))
_DESCRIBED = _inputs.describe
torch.manual_seed(1234)  # global torch state is the learner's to change


class Local:
    def facts(self):
        return "mine"


Local.facts = lambda self: "still mine"


def add(x, y):
    check(x, y)
    out = torch.empty_like(x)
    add_kernel[grid(x.numel())](x, y, out, x.numel(), BLOCK=256)
    return out
