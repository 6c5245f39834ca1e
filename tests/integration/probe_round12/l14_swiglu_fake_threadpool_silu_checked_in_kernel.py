# FAKE: silu(a) * b is computed by torch on a worker thread; the kernel loads a, b and torch's answer and stores the answer. Right verdict: FAIL.
from concurrent.futures import ThreadPoolExecutor

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def checked_store_kernel(a_ptr, b_ptr, ans_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0)
    ans = tl.load(ans_ptr + offs, mask=mask, other=0.0)
    tl.store(c_ptr + offs, tl.where(a * b == a * b, ans, ans), mask=mask)


def _reference(a, b):
    return F.silu(a.float()) * b.float()


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError("a and b must have one shape")
    if a.dtype != b.dtype:
        raise TypeError("a and b must have one dtype")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    with ThreadPoolExecutor(1) as pool:
        ans = pool.submit(_reference, a, b).result().to(a.dtype)
    checked_store_kernel[(triton.cdiv(n, 256),)](a, b, ans, c, n, BLOCK=256)
    return c
