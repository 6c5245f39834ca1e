# ruff: noqa
# WRONG: the learner computes in fp32 and allocates the OUTPUT in fp32 too (forgot to keep the input dtype):
# fp16 input gives an fp32 result.  Teacher: FAIL on the float16 cases, "wrong dtype: float32, expected
# float16", pointing at the allocation (line 22); float32 cases pass.
import torch
import triton
import triton.language as tl


@triton.jit
def fma_chain_kernel(x_ptr, output_ptr, n_elements, degree, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    y = x
    for _ in range(degree):
        y = y * 0.5 + x
    tl.store(output_ptr + offsets, y, mask=mask)


def fma_chain(x, degree, BLOCK_SIZE=1024, num_warps=4):
    output = torch.empty(x.shape, device=x.device, dtype=torch.float32)
    n = x.numel()
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    fma_chain_kernel[grid](x, output, n, degree, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
