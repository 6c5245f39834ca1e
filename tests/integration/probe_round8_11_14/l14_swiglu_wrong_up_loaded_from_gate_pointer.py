"""Learner: a copy-paste slip in the kernel: the second load reads the gate's pointer again,
`up = tl.load(gate_ptr + offs, ...)` instead of `up_ptr`: the kernel computes silu(a) * a. Everything else (fp32
maths, cast on the store, mask, checks) is right, and b is passed to the kernel, just never read.

Right verdict: FAIL in every case; the first diagnosis should say the output does not depend on b / looks like
silu(a) * a (b is never read: the kernel's b argument is unused), naming the load line that reads gate_ptr twice.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_fwd(gate_ptr, up_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    gate = tl.load(gate_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    up = tl.load(gate_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    out = gate * tl.sigmoid(gate) * up
    tl.store(out_ptr + offs, out.to(out_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    a = a.contiguous()
    b = b.contiguous()
    out = torch.empty_like(a)
    n = a.numel()
    if n:
        BLOCK = 1024
        swiglu_fwd[(triton.cdiv(n, BLOCK),)](a, b, out, n, BLOCK=BLOCK)
    return out
