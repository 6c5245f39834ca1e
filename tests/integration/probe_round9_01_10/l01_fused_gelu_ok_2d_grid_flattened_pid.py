"""Learner (correct, different): the 1D vector is covered by a 2D grid — (cdiv(n, 4 * BLOCK_SIZE), 4) programs, the
block id flattened as pid0 * 4 + pid1 (the Triton-Puzzles habit of splitting a long axis over two grid axes). Extra
programs of the last row of the grid find their block past n and are masked off.
Right verdict: PASS."""

import torch
import torch.nn.functional as F  # noqa: F401 (kept from the starter)
import triton
import triton.language as tl

SPLIT = 4


@triton.jit
def fused_gelu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_elements, SPLIT: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    block_id = tl.program_id(axis=0) * SPLIT + tl.program_id(axis=1)
    offsets = block_id * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    w = tl.load(w_ptr + offsets, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask).to(tl.float32)
    z = x * w + b
    y = 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def fused_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not (x.shape == w.shape == b.shape):
        raise ValueError("x, w and b must have the same shape")
    if not (x.is_contiguous() and w.is_contiguous() and b.is_contiguous()):
        raise ValueError("x, w and b must be contiguous")
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, SPLIT * meta["BLOCK_SIZE"]), SPLIT)  # noqa: E731
    fused_gelu_kernel[grid](x, w, b, y, n_elements, SPLIT=SPLIT, BLOCK_SIZE=BLOCK_SIZE)
    return y
