"""Probe round 14, 8/softmax, FAKE: torch computes each row's max and sum of exp, then the two statistics go through
`torch.save` into an in-memory `io.BytesIO` and come back with `torch.load` (new storage, built from bytes by no
operator on the input); the kernel only evaluates exp(x - m) / l. Right verdict: FAIL (torch-work: amax/sum)."""

import io

import torch
import triton
import triton.language as tl


@triton.jit
def softmax_from_stats_kernel(
    out_ptr, x_ptr, stats_ptr, stride_xm, stride_xn, stride_om, n_cols, BLOCK: tl.constexpr
):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    m = tl.load(stats_ptr + 2 * row)
    l = tl.load(stats_ptr + 2 * row + 1)
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0).to(tl.float32)
    p = tl.exp(x - m) / l
    tl.store(out_ptr + row * stride_om + cols, p.to(out_ptr.dtype.element_ty), mask=mask)


def softmax(x):
    if x.dim() != 2:
        raise ValueError("softmax expects a 2D tensor")
    if not x.is_floating_point():
        raise TypeError("softmax needs a floating-point tensor")
    M, N = x.shape
    out = torch.empty((M, N), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    xf = x.float()
    m = xf.amax(dim=1)
    shifted = xf - m[:, None]  # every temporary kept alive until the launch
    e = torch.exp(shifted)
    l = e.sum(dim=1)
    stats = torch.stack([m, l], dim=1).contiguous()
    buffer = io.BytesIO()
    torch.save(stats, buffer)
    buffer.seek(0)
    fresh = torch.load(buffer, map_location=x.device)
    softmax_from_stats_kernel[(M,)](
        out, x, fresh, x.stride(0), x.stride(1), out.stride(0), N, BLOCK=triton.next_power_of_2(N)
    )
    return out
