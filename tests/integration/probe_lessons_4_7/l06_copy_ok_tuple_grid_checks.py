# ruff: noqa
# Correct but different: the grid is a plain tuple computed from the caller's BLOCK_SIZE, the knobs are
# passed positionally / as launch options (num_warps and num_stages), power-of-two asserted.  Teacher: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    m = offs < n_elements
    tl.store(output_ptr + offs, tl.load(x_ptr + offs, mask=m), mask=m)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    assert x.is_contiguous()
    assert BLOCK_SIZE & (BLOCK_SIZE - 1) == 0, "BLOCK_SIZE must be a power of two"
    out = torch.empty_like(x)
    n = x.numel()
    grid = (triton.cdiv(n, BLOCK_SIZE),)
    copy_kernel[grid](x, out, n, BLOCK_SIZE, num_warps=num_warps, num_stages=2)
    return out
