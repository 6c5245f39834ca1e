# ruff: noqa
# Correct but different: a 2D launch grid (a learner who thinks in rows of blocks), the flat program index
# rebuilt from program_id(0) and program_id(1), positional launch args, triton.cdiv.  Teacher: PASS.
import torch
import triton
import triton.language as tl

PROGRAMS_PER_ROW = 8


@triton.jit
def scale_shift_kernel(x_ptr, output_ptr, a, b, n_elements, ROW: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(1) * ROW + tl.program_id(0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * a + b, mask=mask)


def scale_shift(x, a, b, BLOCK_SIZE=1024):
    output = torch.empty_like(x)
    n = output.numel()
    blocks = triton.cdiv(n, BLOCK_SIZE)
    grid = (PROGRAMS_PER_ROW, triton.cdiv(blocks, PROGRAMS_PER_ROW))
    scale_shift_kernel[grid](x, output, a, b, n, PROGRAMS_PER_ROW, BLOCK_SIZE)
    return output
