# OK: keyword-only BLOCK_SIZE (the lab's variant passes it by name), x * a + b computed in float64, out-of-range lanes zeroed with tl.where before a masked store. Right verdict: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(x_ptr, out_ptr, a, b, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(0).to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    inside = offsets < n_elements
    x = tl.load(x_ptr + tl.where(inside, offsets, 0))
    y = x.to(tl.float64) * a + b
    tl.store(out_ptr + offsets, tl.where(inside, y, 0.0).to(out_ptr.dtype.element_ty), mask=inside)


def scale_shift(x: torch.Tensor, a: float, b: float, *, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous")
    out = torch.empty_like(x)
    n = x.numel()
    if n:
        scale_shift_kernel[(triton.cdiv(n, BLOCK_SIZE),)](
            x, out, float(a), float(b), n, BLOCK_SIZE=BLOCK_SIZE
        )
    return out
