"""Probe round 14, 5/add, CORRECT: a persistent vector add: at most 4 programs, each walking the vector with a
grid-sized stride (`tl.range(pid * BLOCK, n, num_programs * BLOCK)`), offsets built in int64, BLOCK chosen at
run time from n. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    step = tl.num_programs(0).to(tl.int64) * BLOCK
    lanes = tl.arange(0, BLOCK).to(tl.int64)
    for start in tl.range(pid * BLOCK, n_elements, step):
        offs = start + lanes
        mask = offs < n_elements
        x = tl.load(x_ptr + offs, mask=mask)
        y = tl.load(y_ptr + offs, mask=mask)
        tl.store(out_ptr + offs, x + y, mask=mask)


def add(x, y):
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    if x.shape != y.shape:
        raise ValueError(f"shapes differ: {tuple(x.shape)} vs {tuple(y.shape)}")
    if x.dtype != y.dtype:
        raise TypeError(f"dtypes differ: {x.dtype} vs {y.dtype}")
    if not (x.is_contiguous() and y.is_contiguous()):
        raise ValueError("x and y must be contiguous")
    out = torch.empty_like(x)
    n = out.numel()
    if n == 0:
        return out
    block = 256 if n < 4096 else 1024
    programs = min(triton.cdiv(n, block), 4)
    add_kernel[(programs,)](x, y, out, n, BLOCK=block)
    return out
