"""Learner (correct, different): tanh written without tl.sigmoid, through exp2 in the overflow-safe logistic form
tanh(u) = 1 - 2 / (exp(2u) + 1), exp(2u) = exp2(2u * log2(e)). For u past ~44 exp2 gives inf and 2 / inf = 0
(tanh = 1); for u below ~-44 it gives 0 and 1 - 2 = -1: no inf / inf anywhere. Constants as tl.constexpr globals
(`X = tl.constexpr(v)`; until the twenty-seventh session this file wrote `X: tl.constexpr = v`, which a GPU compile
refuses: tests/integration/test_global_rule.py). Right verdict: PASS."""

import math  # noqa: F401 (kept from the starter)

import torch
import triton
import triton.language as tl

SQRT_2_OVER_PI = tl.constexpr(0.7978845608028654)
TWO_LOG2E = tl.constexpr(2.0 * 1.4426950408889634)


@triton.jit
def _tanh(u):
    return 1.0 - 2.0 / (tl.exp2(u * TWO_LOG2E) + 1.0)


@triton.jit
def gelu_tanh_kernel(x_ptr, y_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask, other=0.0).to(tl.float32)
    inner = SQRT_2_OVER_PI * (x + 0.044715 * x * x * x)
    y = 0.5 * x * (1.0 + _tanh(inner))
    tl.store(y_ptr + offsets, y.to(y_ptr.dtype.element_ty), mask=mask)


def gelu_tanh(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("gelu_tanh expects a contiguous tensor")
    y = torch.empty_like(x)
    n_elements = x.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    gelu_tanh_kernel[grid](x, y, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return y
