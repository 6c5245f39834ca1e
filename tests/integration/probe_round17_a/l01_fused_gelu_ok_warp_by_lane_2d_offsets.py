"""Probe round 17a, 1/fused-gelu, CORRECT: each program still owns BLOCK_SIZE consecutive elements, but its lanes
are laid out as a 2D [BLOCK_SIZE // 32, 32] tile ("warps by lanes", as a CUDA programmer thinks of a block):
offsets = pid * BLOCK_SIZE + row * 32 + lane. Loads, math and the store all work on the 2D tile."""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl

LANES = 32


@triton.jit
def fused_gelu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr, LANES: tl.constexpr):
    pid = tl.program_id(axis=0)
    warp = tl.arange(0, BLOCK_SIZE // LANES)
    lane = tl.arange(0, LANES)
    offsets = pid * BLOCK_SIZE + warp[:, None] * LANES + lane[None, :]  # [BLOCK_SIZE // 32, 32]
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    w = tl.load(w_ptr + offsets, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask).to(tl.float32)
    z = x * w + b
    y = 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def fused_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not (x.shape == w.shape == b.shape):
        raise ValueError(f"x, w and b must have the same shape, got {x.shape}, {w.shape}, {b.shape}")
    if BLOCK_SIZE % LANES:
        raise ValueError(f"BLOCK_SIZE must be a multiple of {LANES}")
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    fused_gelu_kernel[grid](x, w, b, y, n_elements, BLOCK_SIZE=BLOCK_SIZE, LANES=LANES)
    return y


def gelu_eager(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.gelu(x * w + b)
