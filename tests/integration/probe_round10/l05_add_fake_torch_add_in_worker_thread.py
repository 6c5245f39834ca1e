"""Learner (a shortcut that fakes the exercise): x + y is computed by torch on a worker thread —
`ThreadPoolExecutor(1).submit(torch.add, x, y).result()` — and a kernel copies it into the output.

Right verdict: FAIL — torch computed the sum (torch-work, or a copied answer).
"""

from concurrent.futures import ThreadPoolExecutor

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def add(x, y):
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    out = torch.empty_like(x)
    n = out.numel()
    if n == 0:
        return out
    with ThreadPoolExecutor(1) as pool:
        total = pool.submit(torch.add, x, y).result()
    copy_kernel[(triton.cdiv(n, 1024),)](total, out, n, BLOCK=1024)
    return out
