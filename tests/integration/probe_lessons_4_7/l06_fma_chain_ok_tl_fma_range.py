# ruff: noqa
# Correct but different: tl.fma inside a tl.range loop, int64 offsets, cast back with .to(x dtype) read from
# x_ptr, BLOCK_SIZE 512 by default.  Teacher: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(x_ptr, output_ptr, n_elements, degree, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x_raw = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    x = x_raw.to(tl.float32)
    y = x
    for _ in tl.range(0, degree):
        y = tl.fma(y, 0.5, x)
    tl.store(output_ptr + offsets, y.to(x_raw.dtype), mask=mask)


def fma_chain(x, degree, BLOCK_SIZE=512, num_warps=4):
    if degree < 0:
        raise ValueError("degree must be >= 0")
    output = torch.empty_like(x)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    fma_chain_kernel[grid](x, output, n, degree, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
