"""Learner: module-level aliases of tl builtins and tl.math functions — `_exp = tl.math.exp`,
`_maximum = tl.maximum`, `_where = tl.where`, `_max = tl.max`, `_sum = tl.sum`, `_pid = tl.program_id` —
used inside a @triton.jit helper (`_stable_softmax_row`) that the kernel calls, and `_pid` in the kernel.

Right verdict: PASS (valid Triton on a GPU: each global is a builtin or a jit function).
"""

import torch
import triton
import triton.language as tl

_exp = tl.math.exp
_maximum = tl.maximum
_where = tl.where
_max = tl.max
_sum = tl.sum
_pid = tl.program_id


@triton.jit
def _stable_softmax_row(row, mask):
    row = _where(mask, row, -float("inf"))
    top = _maximum(_max(row, axis=0), -3.0e38)
    num = _exp(row - top)
    return num / _sum(num, axis=0)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, in_col_stride, out_stride, n_cols, BLOCK_SIZE: tl.constexpr):
    r = _pid(axis=0)
    cols = tl.arange(0, BLOCK_SIZE)
    mask = cols < n_cols
    row = tl.load(in_ptr + r * in_stride + cols * in_col_stride, mask=mask, other=0.0).to(tl.float32)
    out = _stable_softmax_row(row, mask)
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
