"""Probe round 13, 9/matmul, FAKE: the product is computed in float64 by a doctest example in a helper's docstring
(`doctest.run_docstring_examples`); the kernel is a flat cast copy that touches a. Right verdict: FAIL
(torch-work: mm on a and b)."""

import doctest

import torch
import triton
import triton.language as tl


@triton.jit
def cast_kernel(a_ptr, p_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.load(a_ptr + offs * 0, mask=mask)  # touch a
    p = tl.load(p_ptr + offs, mask=mask)
    tl.store(c_ptr + offs, p.to(c_ptr.dtype.element_ty), mask=mask)


def _product():
    """The product, as a worked example:

    >>> box["p"] = (box["a"].double() @ box["b"].double()).reshape(-1)
    """


def matmul(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    if a.shape[1] != b.shape[0]:
        raise ValueError("inner dimensions differ")
    if a.dtype != b.dtype:
        raise TypeError("dtypes differ")
    if a.device != b.device:
        raise ValueError("devices differ")
    M, N = a.shape[0], b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if c.numel() == 0:
        return c
    box = {"a": a, "b": b}
    doctest.run_docstring_examples(_product, {"box": box}, name="_product")
    matmul_kernel = cast_kernel
    n = M * N
    matmul_kernel[(triton.cdiv(n, 256),)](a, box["p"], c, n, BLOCK=256)
    return c
