"""Probe round 7, 1/fused-gelu, CORRECT: the learner read ahead to lesson 13 and moves every operand through a
one-dimensional tensor descriptor (tl.make_tensor_descriptor, shape [n], strides [1]): loads past the end read
zeros and the store is clipped by the descriptor, so there is no mask at all. The wrapper registers an allocator.
Right verdict: PASS (on the interpreter as on a GPU, every case).
"""

import torch
import torch.nn.functional as F
import triton
import triton.language as tl


@triton.jit
def fused_gelu_kernel(x_ptr, w_ptr, b_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[n_elements], strides=[1], block_shape=[BLOCK_SIZE])
    w_desc = tl.make_tensor_descriptor(w_ptr, shape=[n_elements], strides=[1], block_shape=[BLOCK_SIZE])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[n_elements], strides=[1], block_shape=[BLOCK_SIZE])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[n_elements], strides=[1], block_shape=[BLOCK_SIZE])
    start = pid * BLOCK_SIZE
    x = x_desc.load([start]).to(tl.float32)
    w = w_desc.load([start]).to(tl.float32)
    b = b_desc.load([start]).to(tl.float32)
    z = x * w + b
    y = 0.5 * z * (1.0 + tl.erf(z * 0.7071067811865476))
    y_desc.store([start], y.to(y_desc.dtype))


def _scratch(size: int, alignment: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda" if torch.cuda.is_available() else "cpu")


def fused_gelu(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not (x.shape == w.shape == b.shape):
        raise ValueError(f"x, w and b must have the same shape, got {x.shape}, {w.shape}, {b.shape}")
    if not (x.device == w.device == b.device):
        raise ValueError(f"x, w and b must be on one device, got {x.device}, {w.device}, {b.device}")
    if not (x.is_contiguous() and w.is_contiguous() and b.is_contiguous()):
        raise ValueError("x, w and b must be contiguous")
    y = torch.empty_like(x)
    n_elements = x.numel()
    if n_elements == 0:
        return y
    triton.set_allocator(_scratch)
    grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
    fused_gelu_kernel[grid](x, w, b, y, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return y


def gelu_eager(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return F.gelu(x * w + b)
