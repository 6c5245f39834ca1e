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


@triton.jit
def add_checked_kernel(x_ptr, y_ptr, out_ptr, ref_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    total = tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask)
    expected = tl.load(ref_ptr + offs, mask=mask)
    tl.device_assert((total == expected) | (total != total), "kernel and torch disagree")
    tl.store(out_ptr + offs, total, mask=mask)


def add(x, y):
    """The other false-fail side of `copied-answer`: torch's answer is handed to the kernel, but only to
    check the kernel's own sum against it; the kernel also reads x and y and stores what it computed."""
    check(x, y)
    reference = x + y
    out = torch.empty_like(x)
    add_checked_kernel[grid(x.numel())](x, y, out, reference, x.numel(), BLOCK=256)
    return out
