"""Learner, in the style of Liger-Kernel's swiglu.py: one program per row of the [-1, n_cols] view,
`tl.program_id(0).to(tl.int64)`, the row's pointers moved by row * stride, BLOCK_SIZE = next_power_of_2(n_cols);
silu in fp32 with tl.sigmoid, then Liger's own `c = silu(a).cast(b.dtype) * b` (silu rounded to the inputs' dtype,
the product in that dtype: two roundings in float16/bfloat16, each well inside the tolerance).

Right verdict: PASS (every case, hidden ones included).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def silu(x):
    return x * tl.sigmoid(x)


@triton.jit
def _swiglu_forward_kernel(a_ptr, b_ptr, c_ptr, stride, n_cols: tl.constexpr, BLOCK_SIZE: tl.constexpr):
    program_id = tl.program_id(0).to(tl.int64)

    # locate start index
    a_ptr += program_id * stride
    b_ptr += program_id * stride
    c_ptr += program_id * stride

    col_offsets = tl.arange(0, BLOCK_SIZE)
    mask = col_offsets < n_cols

    # sigmoid requires type float32
    a_row = tl.load(a_ptr + col_offsets, mask=mask, other=0).to(tl.float32)
    b_row = tl.load(b_ptr + col_offsets, mask=mask, other=0)
    c_row = silu(a_row).cast(b_row.dtype) * b_row
    tl.store(c_ptr + col_offsets, c_row, mask=mask)


def calculate_settings(n):
    BLOCK_SIZE = triton.next_power_of_2(n)
    if BLOCK_SIZE > 65536:
        raise RuntimeError(f"Cannot launch Triton kernel since n = {n} exceeds the maximum block size")
    num_warps = 4
    if BLOCK_SIZE >= 32768:
        num_warps = 32
    elif BLOCK_SIZE >= 8192:
        num_warps = 16
    elif BLOCK_SIZE >= 2048:
        num_warps = 8
    return BLOCK_SIZE, num_warps


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"a and b must have one shape, got {tuple(a.shape)} and {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"a and b must have one dtype, got {a.dtype} and {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"a and b are on {a.device} and {b.device}")
    ori_shape = a.shape
    n_cols = ori_shape[-1]
    a = a.contiguous().view(-1, n_cols)
    b = b.contiguous().view(-1, n_cols)
    c = torch.empty_like(a)
    n_rows = a.shape[0]
    if c.numel() == 0:
        return c.view(*ori_shape)
    BLOCK_SIZE, num_warps = calculate_settings(n_cols)
    _swiglu_forward_kernel[(n_rows,)](
        a, b, c, c.stride(-2), n_cols=n_cols, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps
    )
    return c.view(*ori_shape)
