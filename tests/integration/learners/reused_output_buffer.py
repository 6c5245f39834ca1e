# A correct vector add that keeps one output buffer per shape and dtype and returns it on every call (a
# pattern from serving code): the lab must judge each case on the values of that call, not of a later one.
import torch

import triton
import triton.language as tl

_buffers = {}


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask), mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    assert x.shape == y.shape and x.device == y.device and x.dtype == y.dtype
    key = (tuple(x.shape), x.dtype, x.device)
    if key not in _buffers:
        _buffers[key] = torch.empty_like(x)
    out = _buffers[key]
    n = out.numel()
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, n, BLOCK_SIZE=1024)
    return out
