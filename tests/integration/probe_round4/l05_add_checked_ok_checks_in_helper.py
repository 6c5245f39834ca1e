"""Learner: the wrapper's checks live in a helper, _check_pair, called before anything is allocated."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(
    x_ptr,  # pointer to the first input vector
    y_ptr,  # pointer to the second input vector
    output_ptr,  # pointer to the output vector
    n_elements,  # number of elements in each vector
    BLOCK_SIZE: tl.constexpr,  # elements handled by one program; a compile-time constant
):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements  # the last program may run past the end
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def _check_pair(x: torch.Tensor, y: torch.Tensor) -> None:
    problems = []
    if x.device != y.device:
        problems.append(f"x is on {x.device} but y is on {y.device}")
    if x.shape != y.shape:
        problems.append(f"shapes differ: {tuple(x.shape)} vs {tuple(y.shape)}")
    if x.dtype != y.dtype:
        problems.append(f"dtypes differ: {x.dtype} vs {y.dtype}")
    if not (x.is_contiguous() and y.is_contiguous()):
        problems.append("x and y must be contiguous")
    if problems:
        raise ValueError("; ".join(problems))


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    _check_pair(x, y)
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
