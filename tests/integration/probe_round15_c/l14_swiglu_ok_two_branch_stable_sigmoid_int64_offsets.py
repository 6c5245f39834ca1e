"""Probe round 15c, 14/swiglu, CORRECT: the sigmoid written the "numerically stable" two-branch way (exp of a
non-positive number only: 1 / (1 + e^-a) for a >= 0, e^a / (1 + e^a) below), int64 offsets, a block sized from
numel (at most 2048) with num_warps chosen from it, loads with `other=`, and the product taken as silu(a) * b with
silu and b both in float32.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def _stable_sigmoid(x):
    e = tl.exp(-tl.abs(x))  # in (0, 1]: never overflows
    return tl.where(x >= 0, 1.0 / (1.0 + e), e / (1.0 + e))


@triton.jit
def _swiglu_fwd(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    start = tl.program_id(0).to(tl.int64) * BLOCK
    offs = start + tl.arange(0, BLOCK).to(tl.int64)
    inside = offs < n
    a = tl.load(a_ptr + offs, mask=inside, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=inside, other=0.0).to(tl.float32)
    silu = a * _stable_sigmoid(a)
    tl.store(c_ptr + offs, (silu * b).to(c_ptr.dtype.element_ty), mask=inside)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"devices differ: {a.device} vs {b.device}")
    a_flat = a.contiguous().view(-1)
    b_flat = b.contiguous().view(-1)
    out = torch.empty_like(a_flat)
    n = a_flat.numel()
    if n:
        block = max(16, min(2048, triton.next_power_of_2(n)))
        warps = 8 if block >= 2048 else 4
        _swiglu_fwd[(triton.cdiv(n, block),)](a_flat, b_flat, out, n, BLOCK=block, num_warps=warps)
    return out.view(a.shape)
