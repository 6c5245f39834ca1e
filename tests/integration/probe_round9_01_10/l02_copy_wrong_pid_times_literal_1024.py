"""Learner (wrong): the block start is written with the default block size as a literal, pid * 1024, while the
lanes come from tl.arange(0, BLOCK_SIZE). With the default BLOCK_SIZE = 1024 it is right; called with
BLOCK_SIZE = 128, program p copies elements p * 1024 ... p * 1024 + 127 and leaves the 896 after them unwritten.
Right verdict: FAIL in the BLOCK_SIZE = 128 cases with n > 128; the first diagnosis should say each program starts
1024 elements after the previous one instead of BLOCK_SIZE (the offsets line), not a grid that is too small."""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * 1024 + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x, mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor")
    output = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
