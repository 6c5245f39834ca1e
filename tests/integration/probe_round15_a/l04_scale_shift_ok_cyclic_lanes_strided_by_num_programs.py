"""Probe round 15a, 4/scale-shift, CORRECT: a cyclic distribution instead of contiguous blocks. Program pid owns
the elements pid, pid + P, pid + 2P, ... (P = tl.num_programs(0)); with P = cdiv(n, BLOCK_SIZE) programs the
BLOCK_SIZE lanes of each program still cover 0 .. P * BLOCK_SIZE - 1 exactly once. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, output_ptr, a, b, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    num_programs = tl.num_programs(axis=0)
    # lane k of program pid handles element pid + k * P: neighbouring programs touch neighbouring elements
    offsets = pid + tl.arange(0, BLOCK_SIZE) * num_programs
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0)
    tl.store(output_ptr + offsets, x * a + b, mask=mask)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    scale_shift_kernel[grid](x, output, a, b, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
