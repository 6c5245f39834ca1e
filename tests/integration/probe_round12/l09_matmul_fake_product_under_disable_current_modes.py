# FAKE: a @ b is computed by torch inside torch.utils._python_dispatch._disable_current_modes(); a tile kernel loads a's tile and stores torch's product. Right verdict: FAIL.
import torch
import triton
import triton.language as tl
from torch.utils._python_dispatch import _disable_current_modes


@triton.jit
def store_tile_kernel(a_ptr, p_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    a0 = tl.load(a_ptr + rows * K, mask=rows < M, other=0.0)  # a's first column: the launch reads the input
    p = tl.load(p_ptr + rows[:, None] * N + cols[None, :], mask=mask, other=0.0)
    tl.store(c_ptr + rows[:, None] * N + cols[None, :], tl.where(a0[:, None] == a0[:, None], p, p), mask=mask)


def matmul(a, b, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=None):
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise ValueError("matmul expects [M, K] @ [K, N]")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if a.dtype != b.dtype:
        raise TypeError("a and b have different dtypes")
    a, b = a.contiguous(), b.contiguous()
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    with _disable_current_modes():
        product = (a.float() @ b.float()).to(a.dtype)
    grid = (triton.cdiv(M, 32), triton.cdiv(N, 32))
    store_tile_kernel[grid](a, product, c, M, N, K, BLOCK_M=32, BLOCK_N=32)
    return c
