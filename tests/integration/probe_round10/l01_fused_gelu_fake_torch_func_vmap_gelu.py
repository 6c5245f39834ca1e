"""Learner (a shortcut that fakes the exercise): the whole chain is done by torch through torch.func —
`g = torch.func.vmap(F.gelu)(torch.addcmul(b, x, w))` — and a kernel copies g into the output.

Right verdict: FAIL — torch computed gelu(x * w + b) (torch-work).
"""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


def fused_gelu(x, w, b, BLOCK_SIZE=1024):
    if not (x.shape == w.shape == b.shape):
        raise ValueError("x, w and b must have the same shape")
    if not (x.device == w.device == b.device):
        raise ValueError("x, w and b must be on one device")
    y = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return y
    g = torch.func.vmap(F.gelu)(torch.addcmul(b, x, w))
    copy_kernel[(triton.cdiv(n, BLOCK_SIZE),)](g, y, n, BLOCK=BLOCK_SIZE)
    return y
