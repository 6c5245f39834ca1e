"""Learner (wrong): the grid and the launch disagree on the block. The learner tuned BLOCK_SIZE down from 1024 to
512 in the launch and forgot the grid line above it, which still divides by 1024:

    grid = (triton.cdiv(n, 1024),)
    _swiglu_kernel[grid](a, b, c, n, BLOCK_SIZE=512)

Each program covers 512 elements of its 1024: elements 512..1023 of every 1024 are never written. A tensor of up
to 512 elements passes (M = 1, N = 1; 16 x 100 = 1600 does not; 3 x 257 = 771 does not).

Right verdict: FAIL on cases with more than 512 elements, the first diagnosis saying the output has unwritten
gaps because the grid launches too few programs for the BLOCK_SIZE used (ideally the grid line), not a formula.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def _swiglu_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape or a.dtype != b.dtype or a.device != b.device:
        raise ValueError(
            f"a and b must match: {a.shape}/{a.dtype}/{a.device} vs {b.shape}/{b.dtype}/{b.device}"
        )
    a = a.contiguous()
    b = b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    grid = (triton.cdiv(n, 1024),)
    _swiglu_kernel[grid](a, b, c, n, BLOCK_SIZE=512)
    return c
