"""Learner: every check raises TypeError (the TODO allows ValueError or TypeError), phrased as sentences, and the
launch sends flattened views of the (contiguous) inputs."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if str(x.device) != str(y.device):
        raise TypeError(f"cannot add a tensor on {x.device} to a tensor on {y.device}")
    if list(x.shape) != list(y.shape):
        raise TypeError(f"cannot add shape {list(x.shape)} to shape {list(y.shape)}")
    if x.dtype is not y.dtype:
        raise TypeError(f"cannot add {x.dtype} to {y.dtype}")
    if not x.is_contiguous():
        raise TypeError(f"x must be contiguous, its strides are {x.stride()}")
    if not y.is_contiguous():
        raise TypeError(f"y must be contiguous, its strides are {y.stride()}")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x.view(-1), y.view(-1), output.view(-1), n_elements, BLOCK_SIZE=1024)
    return output
