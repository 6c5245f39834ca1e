"""Probe round 13, 14/swiglu, CORRECT: sigmoid(a) as (1 + tanh(a / 2)) / 2 with tanh written through exp; the wrapper
uses flat views when the inputs are contiguous. Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def swiglu_kernel(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offs = tl.program_id(0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    # sigmoid(a) = (1 + tanh(a / 2)) / 2, with tanh(h) = 1 - 2 / (exp(2h) + 1) (no overflow to NaN:
    # exp -> inf gives tanh = 1, exp -> 0 gives tanh = -1)
    t = 1.0 - 2.0 / (tl.exp(a) + 1.0)
    c = a * (0.5 + 0.5 * t) * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if not a.is_floating_point():
        raise TypeError("swiglu needs floating-point inputs")
    # flat views when both are already contiguous; copies only when not
    a_flat = a.reshape(-1) if a.is_contiguous() else a.contiguous().view(-1)
    b_flat = b.reshape(-1) if b.is_contiguous() else b.contiguous().view(-1)
    c = torch.empty(a.shape, device=a.device, dtype=a.dtype)
    n = a_flat.numel()
    if n:
        swiglu_kernel[(triton.cdiv(n, 512),)](a_flat, b_flat, c, n, BLOCK_SIZE=512)
    return c
