"""Learner: torch computes `ans = x.float() + y.float()`, hands `ans` to a kernel together with x and y (the
kernel loads all three and stores `ans + 0 * (x + y)` back into `ans`), and the wrapper returns
`ans.to(x.dtype)`: a cast of a buffer a kernel was given and wrote, whose values torch computed.

Right verdict: FAIL (torch-work: torch did the addition; the kernel only passed it through).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def touch_kernel(x_ptr, y_ptr, ans_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    y = tl.load(y_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(ans_ptr + offsets, mask=mask, other=0.0)
    tl.store(ans_ptr + offsets, a + 0.0 * (x + y), mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    n = x.numel()
    ans = x.float() + y.float()
    if n:
        touch_kernel[(triton.cdiv(n, 512),)](x, y, ans, n, BLOCK_SIZE=512)
    return ans.to(x.dtype)
