# ruff: noqa
# Correct but different: validation spelled differently (x.size() != y.size(), exceptions of other
# types: TypeError for device, RuntimeError for shape), contiguity checked with is_contiguous() so the
# offset view is accepted.  Teacher: PASS.
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


def _check(x, y):
    if x.device != y.device:
        raise TypeError(f"device mismatch: {x.device} vs {y.device}")
    if x.size() != y.size():
        raise RuntimeError(f"size mismatch: {x.size()} vs {y.size()}")
    if x.dtype != y.dtype:
        raise TypeError(f"dtype mismatch: {x.dtype} vs {y.dtype}")
    for name, t in (("x", x), ("y", y)):
        if not t.is_contiguous():
            raise ValueError(f"{name} is not contiguous (strides {t.stride()})")


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    _check(x, y)
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=256)
    return output
