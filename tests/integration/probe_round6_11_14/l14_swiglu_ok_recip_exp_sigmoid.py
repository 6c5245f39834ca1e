"""Learner: sigmoid written out as 1 / (1 + exp(-a)) in float32, BLOCK_SIZE 512."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    sig = 1.0 / (1.0 + tl.exp(-a))
    c = a * sig * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError("devices differ")
    a = a.contiguous()
    b = b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    BLOCK_SIZE = 512
    swiglu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](a, b, c, n, BLOCK_SIZE=BLOCK_SIZE)
    return c


if __name__ == "__main__":
    import torch.nn.functional as F

    for shape in [(1, 1), (3, 257), (7, 1000)]:
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            a = torch.randn(shape, dtype=dt) * 3
            b = torch.randn(shape, dtype=dt)
            ref = (F.silu(a.float()) * b.float()).to(dt)
            torch.testing.assert_close(swiglu(a, b), ref)
    print("ok")
