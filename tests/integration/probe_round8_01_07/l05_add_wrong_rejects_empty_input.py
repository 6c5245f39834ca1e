"""Probe round 8, 5/add, WRONG: an over-defensive wrapper. Besides the device check, the learner refuses empty
inputs (`if x.numel() == 0: raise ValueError("nothing to add")`), but x + y of two empty vectors is a valid call
whose answer is an empty vector (torch returns one). The kernel itself is correct for every other size. Right
verdict: FAIL on the n = 0 cases only, with the learner's raise line named (the wrapper refused valid input).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    if x.numel() == 0:
        raise ValueError("add() got empty tensors: nothing to add")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
