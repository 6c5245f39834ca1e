# ruff: noqa
# WRONG: each program copies only the first half of its block (tl.arange(0, BLOCK_SIZE // 2)), so the second
# half of every block is never written.  Teacher: FAIL, "elements never written" — the second half of each
# program's block — pointing at the offsets line (line 12); the cause is the arange length, not the grid.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE // 2)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    output = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
