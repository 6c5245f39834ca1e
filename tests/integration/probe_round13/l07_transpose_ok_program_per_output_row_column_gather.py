"""Probe round 13, 7/transpose, CORRECT: one program per output row (= one column of x); it walks down x's
column in BLOCK_M chunks with a strided 1D load and writes a contiguous run of the output row. No 2D tile,
no tl.trans. BLOCK_N is accepted and unused (the lab's variant passes it). Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, stride_xm, stride_xn, stride_om, BLOCK_M: tl.constexpr):
    j = tl.program_id(0).to(tl.int64)  # output row j holds column j of x
    offs = tl.arange(0, BLOCK_M)
    for start in range(0, M, BLOCK_M):
        i = start + offs
        inside = i < M
        v = tl.load(x_ptr + i * stride_xm + j * stride_xn, mask=inside)
        tl.store(out_ptr + j * stride_om + i, v, mask=inside)


def transpose(x: torch.Tensor, BLOCK_M: int = 64, BLOCK_N: int = 16) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"transpose expects a 2D tensor, got {tuple(x.shape)}")
    M, N = x.shape
    out = torch.empty((N, M), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    transpose_kernel[(N,)](x, out, M, x.stride(0), x.stride(1), out.stride(0), BLOCK_M=BLOCK_M)
    return out
