"""Probe round 15a, 6/copy, CORRECT: a copy moves bits, not numbers, so the wrapper hands the kernel integer
views of the same storage (int32 for 4-byte dtypes, int16 for 2-byte ones): the kernel never does float
arithmetic. BLOCK_SIZE reaches the kernel and num_warps the launch. Right verdict: PASS."""

import torch
import triton
import triton.language as tl

_SAME_WIDTH_INT = {4: torch.int32, 2: torch.int16, 1: torch.int8, 8: torch.int64}


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    bits = tl.load(x_ptr + offsets, mask=mask, other=0)
    tl.store(output_ptr + offsets, bits, mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    as_int = _SAME_WIDTH_INT[x.element_size()]
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    copy_kernel[grid](
        x.view(as_int), output.view(as_int), n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps
    )
    return output
