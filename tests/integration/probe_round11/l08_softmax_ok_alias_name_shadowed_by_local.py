"""Learner: a module-level alias `mask = tl.program_id` (a leftover from an experiment) shares its name with
the kernel's local `mask = cols < n_cols`; the kernel calls `tl.program_id` itself and uses its local `mask`.
The local shadows the global inside the kernel, as Python scoping says.

Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl

mask = tl.program_id  # unused alias; the kernel's local `mask` shadows it
exp = tl.exp


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, in_col_stride, out_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    r = tl.program_id(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    row = tl.load(in_ptr + r * in_stride + cols * in_col_stride, mask=mask, other=-float("inf")).to(
        tl.float32
    )
    num = exp(row - tl.max(row, axis=0))
    out = num / tl.sum(num, axis=0)
    tl.store(out_ptr + r * out_stride + cols, out.to(out_ptr.dtype.element_ty), mask=mask)


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    softmax_kernel[(M,)](
        out, x, x.stride(0), x.stride(1), out.stride(0), N, BLOCK_SIZE=triton.next_power_of_2(N)
    )
    return out
