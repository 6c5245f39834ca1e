"""Probe round 15c, 14/swiglu, WRONG: everything in float32 as asked, but the store rounds through a hard-coded
`tl.float16` (`c.to(tl.float16)`, the learner tested with fp16 tensors) instead of the output's element type. For
float16 it is right; for bfloat16 it is a double rounding (fp16 then bf16), within tolerance; float32 outputs carry
fp16 precision (about 3 digits), and values past 65504 would be inf.
Right verdict: FAIL on float32 only, naming the store's cast (a 16-bit rounding in a float32 case), not "compute in
float32"."""

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
    c = a * tl.sigmoid(a) * b
    tl.store(c_ptr + offs, c.to(tl.float16), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"devices differ: {a.device} and {b.device}")
    a = a.contiguous()
    b = b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    BLOCK_SIZE = 1024
    swiglu_kernel[(triton.cdiv(n, BLOCK_SIZE),)](a, b, c, n, BLOCK_SIZE=BLOCK_SIZE)
    return c


if __name__ == "__main__":
    x = torch.randn(37, 300, dtype=torch.float16)
    y = torch.randn(37, 300, dtype=torch.float16)
    ref = (torch.nn.functional.silu(x.float()) * y.float()).to(x.dtype)
    torch.testing.assert_close(swiglu(x, y), ref)
    print("ok")
