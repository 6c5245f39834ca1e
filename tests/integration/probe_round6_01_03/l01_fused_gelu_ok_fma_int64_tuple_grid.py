"""Lesson 1: y = gelu(x * w + b) in one fused Triton kernel, next to the same chain in eager PyTorch.

The kernel is complete except for one line. Run it (F5), verify it (F6), fix the TODO, benchmark it (F7),
and look at it at every compiler stage with `tritonlab ir 1`.
"""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def fused_gelu_kernel(
    x_ptr,  # pointer to the first element of x
    w_ptr,  # pointer to the first element of w (same length as x)
    b_ptr,  # pointer to the first element of b (same length as x)
    y_ptr,  # pointer to the first element of the output y
    n_elements,  # number of elements in each of the four tensors
    BLOCK_SIZE: tl.constexpr,  # how many elements one program handles
):
    pid = tl.program_id(axis=0)
    offsets = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    # Compute in float32 whatever the storage dtype: fp16 inputs lose nothing on the way.
    x = tl.load(x_ptr + offsets, mask=mask).to(tl.float32)
    w = tl.load(w_ptr + offsets, mask=mask).to(tl.float32)
    b = tl.load(b_ptr + offsets, mask=mask).to(tl.float32)
    z = tl.fma(x, w, b)  # x * w + b in one fused multiply-add
    y = 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476))  # exact GELU, like F.gelu: 0.7071... = 1/sqrt(2)
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def fused_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not (x.shape == w.shape == b.shape):
        shapes = ", ".join(str(tuple(t.shape)) for t in (x, w, b))
        raise ValueError(f"x, w and b must have the same shape, got {shapes}")
    if not (x.device == w.device == b.device):
        raise ValueError(f"x, w and b must be on one device, got {x.device}, {w.device}, {b.device}")
    if not (x.is_contiguous() and w.is_contiguous() and b.is_contiguous()):
        raise ValueError("x, w and b must be contiguous")
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
    fused_gelu_kernel[grid](x, w, b, y, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return y


def gelu_eager(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    """The same chain in eager PyTorch: three kernel launches, two temporaries written to memory."""
    return F.gelu(x * w + b)
