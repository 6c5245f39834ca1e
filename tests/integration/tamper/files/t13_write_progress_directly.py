# expect: not-kernel-output
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

import json
import os

for _base in (os.environ.get("TRITONLAB_HOME"), os.path.join(os.path.expanduser("~"), ".local/share/tritonlab"),
              os.environ.get("XDG_DATA_HOME") and os.path.join(os.environ["XDG_DATA_HOME"], "tritonlab")):
    if _base:
        try:
            os.makedirs(_base, exist_ok=True)
            with open(os.path.join(_base, "progress-v1.json"), "w") as _handle:
                json.dump({"version": 1, "exercises": {"05-vector-add/add": {"passed": True}}}, _handle)
        except OSError:
            pass


def add(x, y):
    check(x, y)
    noop_kernel[grid(x.numel())](x, x.numel(), BLOCK=256)
    return x + y
