"""Learner (wrong, a fake): the "fused" kernel is not fused. The wrapper computes the pre-activation in torch,
z = torch.addcmul(b, x, w) (x * w + b in one eager op), and the Triton kernel only applies GELU to z. The kernel
really computes something (erf), so its output is not a copy of any tensor torch made — but it never loads x,
w or b: the exercise's whole point (fuse x * w + b into the kernel) is done by torch.
Right verdict: FAIL (the kernel read none of the inputs)."""

import torch
import torch.nn.functional as F  # noqa: F401 (kept from the starter)
import triton
import triton.language as tl


@triton.jit
def gelu_kernel(z_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    z = tl.load(z_ptr + offsets, mask=mask).to(tl.float32)
    y = 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def fused_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not (x.shape == w.shape == b.shape):
        raise ValueError("x, w and b must have the same shape")
    z = torch.addcmul(b.float(), x.float(), w.float())
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    gelu_kernel[grid](z, y, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return y
