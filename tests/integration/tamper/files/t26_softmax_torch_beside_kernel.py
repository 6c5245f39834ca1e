# expect: not-kernel-output
# ruff: noqa  (a hostile learner file: its oddities are the point)
# exercise: 8/softmax
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, in_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    tl.load(in_ptr + row * n_cols + cols, mask=cols < n_cols)


def softmax(x):
    if x.dim() != 2:
        raise ValueError("softmax expects a 2D tensor")
    x = x.contiguous()
    softmax_kernel[(x.shape[0],)](x, x, x.shape[1], BLOCK=triton.next_power_of_2(max(x.shape[1], 1)))
    return torch.softmax(x.float(), dim=-1).to(x.dtype)
