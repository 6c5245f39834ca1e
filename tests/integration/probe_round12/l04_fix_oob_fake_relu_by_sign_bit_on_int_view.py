# FAKE: relu is done by torch on an integer view of x's bits (sign bit set -> 0); the kernel copies torch's result while loading x. Right verdict: FAIL.
import torch
import triton
import triton.language as tl

_INT = {torch.float32: torch.int32, torch.float16: torch.int16, torch.bfloat16: torch.int16}


@triton.jit
def copy_checked_kernel(x_ptr, ans_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    ans = tl.load(ans_ptr + offsets, mask=mask, other=0.0)
    tl.store(out_ptr + offsets, tl.where(x == x, ans, ans), mask=mask)


def relu(x: torch.Tensor) -> torch.Tensor:
    bits = x.view(_INT[x.dtype])
    ans = torch.where(bits < 0, torch.zeros_like(bits), bits).view(x.dtype)
    out = torch.empty_like(x)
    n = x.numel()
    copy_checked_kernel[(triton.cdiv(n, 1024),)](x, ans, out, n, BLOCK_SIZE=1024)
    return out
