"""Probe round 17, part c — 14/swiglu — WRONG. A capstone file written from the empty starter: flat launch, masks,
fp32 maths and the checks are right; one slip in the sigmoid written out by hand, `1 / (1 + exp(a))` where it is
`1 / (1 + exp(-a))` — the gate is a * sigmoid(-a) = a * (1 - sigmoid(a)), not silu(a).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    gate = 1.0 / (1.0 + tl.exp(a))
    c = a * gate * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    """c = silu(a) * b elementwise; a and b of one shape, one floating dtype, one device."""
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"devices differ: {a.device} and {b.device}")
    if not a.is_floating_point():
        raise TypeError(f"swiglu needs floating-point tensors, got {a.dtype}")
    a = a.contiguous()
    b = b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    BLOCK_SIZE = 1024 if a.is_cuda else 128
    swiglu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](a, b, c, n, BLOCK_SIZE=BLOCK_SIZE)
    return c


if __name__ == "__main__":
    for shape in [(1, 1), (3, 257), (16, 100)]:
        a = torch.randn(shape) * 3
        b = torch.randn(shape)
        torch.testing.assert_close(swiglu(a, b), torch.nn.functional.silu(a) * b)
    print("ok")
