# expect: written-after-kernel
# ruff: noqa  (a hostile learner file: its oddities are the point)
# exercise: 7/copy-2d
import torch
import triton
import triton.language as tl


@triton.jit
def zero_2d(out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.zeros([BLOCK], dtype=tl.float32).to(out_ptr.dtype.element_ty), mask=offs < n)


def copy_2d(x, BLOCK_M=64, BLOCK_N=64):
    if x.dim() != 2:
        raise ValueError("copy_2d expects a 2D tensor")
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    zero_2d[(triton.cdiv(out.numel(), 256),)](out, out.numel(), BLOCK=256)
    out.copy_(x)
    return out
