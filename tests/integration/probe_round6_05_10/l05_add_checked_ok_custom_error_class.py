"""Learner: a custom exception class (a ValueError subclass) for every bad input, raised from a loop of rules."""

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


class AddInputError(ValueError):
    """Raised by add() when x and y cannot be added element-wise by the flat kernel."""


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    rules = [
        ("device", lambda t: t.device),
        ("shape", lambda t: tuple(t.shape)),
        ("dtype", lambda t: t.dtype),
    ]
    for what, get in rules:
        if get(x) != get(y):
            raise AddInputError(f"{what} differs: x has {get(x)}, y has {get(y)}")
    for name, t in (("x", x), ("y", y)):
        if not t.is_contiguous():
            raise AddInputError(f"{name} is not contiguous (strides {t.stride()})")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
