# ruff: noqa
# Correct but different: int64 offsets; instead of a masked load with other=, the out-of-range offsets are
# clamped to 0 with tl.where (every address read is in bounds) and the result is zeroed with tl.where; math in
# fp32 and an explicit cast back to the output dtype; grid as (n + B - 1) // B; num_warps=2.  Teacher: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, out_ptr, a, b, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0).to(tl.int64)
    start = pid * BLOCK_SIZE
    offs = start + tl.arange(0, BLOCK_SIZE).to(tl.int64)
    in_bounds = offs < n_elements
    safe = tl.where(in_bounds, offs, 0)
    x = tl.load(x_ptr + safe).to(tl.float32)
    y = x * a + b
    y = tl.where(in_bounds, y, 0.0)
    tl.store(out_ptr + offs, y.to(out_ptr.dtype.element_ty), mask=in_bounds)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 256) -> torch.Tensor:
    assert x.is_contiguous(), "x must be contiguous"
    out = torch.empty_like(x)
    n = x.numel()
    grid = ((n + BLOCK_SIZE - 1) // BLOCK_SIZE,)
    scale_shift_kernel[grid](x, out, a, b, n, BLOCK_SIZE=BLOCK_SIZE, num_warps=2)
    return out
