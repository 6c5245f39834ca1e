"""Probe round 8, 1/fused-gelu, CORRECT: the learner, worried about fp16 precision, widens further than the starter
does: x, w and b are loaded and converted to float64, z = x * w + b and the exact GELU (with tl.erf) are computed in
float64, and the result is rounded once to the output's dtype by tl.store's implicit cast (no .to() on the store).
The wrapper also drops the contiguity check for a `.reshape(-1)` of each input (the lab's inputs are contiguous, so
those are views, not copies) and reshapes y back to x's shape. Slower on a GPU (fp64 units), never less accurate.
Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def fused_gelu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float64)
    w = tl.load(w_ptr + offsets, mask=mask, other=0.0).to(tl.float64)
    b = tl.load(b_ptr + offsets, mask=mask, other=0.0).to(tl.float64)
    z = x * w + b
    y = 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476))
    tl.store(y_ptr + offsets, y, mask=mask)  # implicit cast to y's element type


def fused_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not (x.shape == w.shape == b.shape):
        raise ValueError(
            f"x, w and b must have one shape, got {tuple(x.shape)}, {tuple(w.shape)}, {tuple(b.shape)}"
        )
    if not (x.device == w.device == b.device):
        raise ValueError(f"x, w and b must be on one device, got {x.device}, {w.device}, {b.device}")
    xf, wf, bf = x.reshape(-1), w.reshape(-1), b.reshape(-1)
    y = torch.empty_like(xf)
    n_elements = xf.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    fused_gelu_kernel[grid](xf, wf, bf, y, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return y.reshape(x.shape)
