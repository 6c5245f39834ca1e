# OK: the kernel is launched with copy_kernel.run(..., grid=grid, warmup=False, BLOCK_SIZE=..., num_warps=...) (what kernel[grid](...) calls), knobs passed through. Right verdict: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(out_ptr + offsets, tl.load(x_ptr + offsets, mask=mask), mask=mask)


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor")
    out = torch.empty_like(x)
    n = x.numel()
    if n == 0:
        return out
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)  # noqa: E731
    copy_kernel.run(x, out, n, grid=grid, warmup=False, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return out
