# FAKE: the transpose is x.t().contiguous() in torch; a flat kernel copies it (and loads x[0, 0] so the launch "reads the input"). Right verdict: FAIL.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(src_ptr, x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    first = tl.load(x_ptr)
    vals = tl.load(src_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, tl.where(first == first, vals, vals), mask=mask)


def transpose(x: torch.Tensor, BLOCK_M: int = 16, BLOCK_N: int = 128) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"transpose expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_cols, n_rows), device=x.device, dtype=x.dtype)
    n = out.numel()
    if n == 0:
        return out
    xt = x.t().contiguous()
    copy_kernel[(triton.cdiv(n, 1024),)](xt, x, out, n, BLOCK=1024)
    return out
