"""Probe round 17a, 1/fused-gelu, WRONG: the GELU's prefactor multiplies the input x instead of the
pre-activation z: `y = 0.5 * x * (1.0 + tl.erf(z * 0.7071067811865476))` computes x * Phi(x * w + b), not
gelu(x * w + b) = z * Phi(z). Everything else (offsets, mask, loads, store) is right."""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def fused_gelu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    w = tl.load(w_ptr + offsets, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask).to(tl.float32)
    z = x * w + b
    y = 0.5 * x * (1.0 + tl.erf(z * 0.7071067811865476))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def fused_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not (x.shape == w.shape == b.shape):
        raise ValueError("x, w and b must have the same shape")
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    fused_gelu_kernel[grid](x, w, b, y, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return y


def gelu_eager(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.gelu(x * w + b)
