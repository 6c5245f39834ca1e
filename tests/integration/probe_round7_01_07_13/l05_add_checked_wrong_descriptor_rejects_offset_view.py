"""Probe round 7, 5/add-checked, WRONG: a learner who read ahead to lesson 13 moves x, y and the output through
1D tensor descriptors. The wrapper's checks are right, but a descriptor's base must be 16-byte aligned, and the
lab's y is a valid contiguous view that starts 3 elements into a larger buffer (12 or 6 bytes in): building y's
descriptor fails (on a GPU as on the interpreter), so add() crashes on valid input.
Right verdict: FAIL on the normal cases, the first diagnosis naming y's tl.make_tensor_descriptor line and the
16-byte alignment of its base (not a wrong value, not a rejected input).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    x_desc = tl.make_tensor_descriptor(x_ptr, shape=[n_elements], strides=[1], block_shape=[BLOCK_SIZE])
    y_desc = tl.make_tensor_descriptor(y_ptr, shape=[n_elements], strides=[1], block_shape=[BLOCK_SIZE])
    o_desc = tl.make_tensor_descriptor(output_ptr, shape=[n_elements], strides=[1], block_shape=[BLOCK_SIZE])
    start = tl.program_id(axis=0) * BLOCK_SIZE
    o_desc.store([start], x_desc.load([start]) + y_desc.load([start]))


def _scratch(size: int, alignment: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda" if torch.cuda.is_available() else "cpu")


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    if x.shape != y.shape:
        raise ValueError(f"x has shape {tuple(x.shape)} but y has shape {tuple(y.shape)}")
    if x.dtype != y.dtype:
        raise TypeError(f"x is {x.dtype} but y is {y.dtype}")
    if not (x.is_contiguous() and y.is_contiguous()):
        raise ValueError("x and y must be contiguous")
    output = torch.empty_like(x)
    n_elements = output.numel()
    if n_elements == 0:
        return output
    triton.set_allocator(_scratch)
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
