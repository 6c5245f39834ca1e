"""Probe round 7, 5/add-checked, WRONG: the shape check is torch.broadcast_shapes(x.shape, y.shape), i.e. "the
shapes must be broadcast-compatible", as torch's own x + y would accept. It refuses every shape pair the lab lists
today ((100,) vs (101,), (99,), (10, 10); (10, 10) vs (10, 9)), but it ACCEPTS y of shape (1,) (or (1, 1), or
(1, 100)) next to x of shape (100,): the flat kernel then reads 99 elements past the end of a one-element y (and
for (1, 100) returns a (100,) tensor where x + y has shape (1, 100)). The exercise asks for "their shapes differ
-> raise". Right verdict: FAIL (a broadcastable but different shape must be refused).
"""

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
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    try:
        torch.broadcast_shapes(x.shape, y.shape)
    except RuntimeError as exc:
        raise ValueError(f"x {tuple(x.shape)} and y {tuple(y.shape)} do not broadcast") from exc
    if x.dtype != y.dtype:
        raise TypeError(f"x is {x.dtype} but y is {y.dtype}")
    if not (x.is_contiguous() and y.is_contiguous()):
        raise ValueError("x and y must be contiguous")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
