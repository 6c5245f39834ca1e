"""Probe round 7, 6/copy, CORRECT: each program still copies BLOCK_SIZE consecutive elements, but it addresses
them as a [BLOCK_SIZE // 32, 32] tile (row r, lane c -> start + 32 r + c), the way a learner who has just seen 2D
tiles might vectorise. Both knobs (BLOCK_SIZE, num_warps) reach the launch; n == 0 returns early.
Right verdict: PASS (every case and variant, no knob-ignored).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    ROWS: tl.constexpr = BLOCK_SIZE // 32
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, ROWS)[:, None] * 32 + tl.arange(0, 32)[None, :]
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x, mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor")
    if BLOCK_SIZE < 32:
        raise ValueError("BLOCK_SIZE must be at least 32 (one row of the tile)")
    output = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    copy_kernel[grid](x, output, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
