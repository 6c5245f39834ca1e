"""Learner, saving memory the way some fused-MLP kernels do: the product is stored over a (the gate's buffer,
"never needed again after the MLP") and a is returned. The values returned are right; the caller's a is destroyed,
and the spec says "c: a new tensor". (`a.contiguous()` of a contiguous a is a itself, so the kernel writes into
the caller's tensor.)

Right verdict: FAIL, the first diagnosis saying that a was overwritten / returned (not a value mismatch).
"""

import triton
import triton.language as tl


@triton.jit
def _swiglu_inplace(a_ptr, b_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask).to(tl.float32)
    tl.store(a_ptr + offs, (a * tl.sigmoid(a) * b).to(a_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        raise ValueError(
            f"a {tuple(a.shape)} {a.dtype} {a.device} vs b {tuple(b.shape)} {b.dtype} {b.device}"
        )
    a = a.contiguous()
    b = b.contiguous()
    n = a.numel()
    if n:
        _swiglu_inplace[(triton.cdiv(n, 1024),)](a, b, n, BLOCK=1024)
    return a  # the result now lives in a's buffer
