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

# A correct kernel in a file that, at import, makes torch's random functions return ones. The runner built
# every case's inputs before this ran (from the judge's seeds), so the file still gets the judge's values and
# its kernel passes on them; had the patch reached the inputs, its outputs would not match the judge's.
# The wrapper puts torch back on its first call: a file that leaves torch rewritten fails as `tampered`
# (integrity.py watches torch's functions), which would hide what this file checks.
_saved = (torch.randn, torch.rand)
_ones = lambda *a, **k: torch.ones(*a, **{k_: v for k_, v in k.items() if k_ in ("dtype", "device")})
torch.randn = _ones
torch.rand = _ones
torch.Tensor.normal_ = lambda self, *a, **k: self.fill_(1)
torch.Tensor.uniform_ = lambda self, *a, **k: self.fill_(1)


def add(x, y):
    if "normal_" in vars(torch.Tensor):  # inherited from torch._C.TensorBase before the patch
        torch.randn, torch.rand = _saved
        del torch.Tensor.normal_, torch.Tensor.uniform_
    check(x, y)
    out = torch.empty_like(x)
    add_kernel[grid(x.numel())](x, y, out, x.numel(), BLOCK=256)
    return out
