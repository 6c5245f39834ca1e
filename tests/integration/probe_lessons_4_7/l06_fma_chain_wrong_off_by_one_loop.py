# ruff: noqa
# WRONG: the loop runs degree + 1 times (range(degree + 1)), so degree=0 already applies one FMA.
# Teacher: FAIL on every case (values wrong by a factor), a value mismatch; the cause is the loop on line 16.
import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(x_ptr, output_ptr, n_elements, degree, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = x
    for _ in range(degree + 1):
        y = y * 0.5 + x
    tl.store(output_ptr + offsets, y.to(output_ptr.dtype.element_ty), mask=mask)


def fma_chain(x, degree, BLOCK_SIZE=1024, num_warps=4):
    output = torch.empty_like(x)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    fma_chain_kernel[grid](x, output, n, degree, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
