# OK: block lengths via tl.where (full block or the remainder), grid as a lambda over META, int64 block start. Right verdict: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def lengths_kernel(out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    start = pid.to(tl.int64) * BLOCK_SIZE
    full = start + BLOCK_SIZE <= n_elements
    length = tl.where(full, BLOCK_SIZE, n_elements - start)
    tl.store(out_ptr + pid, length.to(tl.int32))


def elements_per_program(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n = x.numel()
    out = torch.empty((triton.cdiv(n, BLOCK_SIZE),), dtype=torch.int32, device=x.device)
    grid = lambda META: (triton.cdiv(n, META["BLOCK_SIZE"]),)  # noqa: E731
    lengths_kernel[grid](out, n, BLOCK_SIZE=BLOCK_SIZE)
    return out
