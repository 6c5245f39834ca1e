# ruff: noqa
# Correct but different: a fixed number of programs (at most 4) that each walk the vector with a
# grid-stride loop; the device check is an assert (AssertionError is still an exception raised before
# launch).  Teacher: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    for start in range(pid * BLOCK_SIZE, n_elements, nprog * BLOCK_SIZE):
        offsets = start + tl.arange(0, BLOCK_SIZE)
        mask = offsets < n_elements
        x = tl.load(x_ptr + offsets, mask=mask)
        y = tl.load(y_ptr + offsets, mask=mask)
        tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    assert x.device == y.device, f"x on {x.device}, y on {y.device}"
    output = torch.empty_like(x)
    n = output.numel()
    BLOCK = 512
    programs = max(1, min(4, triton.cdiv(n, BLOCK)))
    add_kernel[(programs,)](x, y, output, n, BLOCK_SIZE=BLOCK)
    return output
