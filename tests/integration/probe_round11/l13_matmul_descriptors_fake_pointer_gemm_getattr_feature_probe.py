"""Learner: a plain pointer GEMM (tl.load of masked pointer tiles, no descriptor anywhere in the kernel or the
wrapper) with a feature probe at import that is never used afterwards:
`HAS_TMA = getattr(tl, "make_tensor_descriptor", None) is not None`.

Right verdict: FAIL (api-missing: the exercise is the descriptor GEMM, and nothing here builds or uses a
descriptor; a getattr string is not a call).
"""

import torch
import triton
import triton.language as tl

HAS_TMA = getattr(tl, "make_tensor_descriptor", None) is not None  # checked, then never used


@triton.jit
def matmul_kernel(
    a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr
):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    rn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    rk = tl.arange(0, BLOCK_K)
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k0 in range(0, K, BLOCK_K):
        a = tl.load(
            a_ptr + rm[:, None] * K + (k0 + rk)[None, :],
            mask=(rm[:, None] < M) & ((k0 + rk)[None, :] < K),
            other=0.0,
        )
        b = tl.load(
            b_ptr + (k0 + rk)[:, None] * N + rn[None, :],
            mask=((k0 + rk)[:, None] < K) & (rn[None, :] < N),
            other=0.0,
        )
        acc = tl.dot(a, b, acc)
    tl.store(
        c_ptr + rm[:, None] * N + rn[None, :],
        acc.to(c_ptr.dtype.element_ty),
        mask=(rm[:, None] < M) & (rn[None, :] < N),
    )


def matmul(
    a, b, warp_specialize=False, BLOCK_M=None, BLOCK_N=None, BLOCK_K=None, GROUP_M=8, num_programs=None
):
    if a.dim() != 2 or b.dim() != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"bad shapes {tuple(a.shape)} @ {tuple(b.shape)}")
    if a.dtype != b.dtype or a.device != b.device:
        raise TypeError("a and b must share dtype and device")
    M, K = a.shape
    N = b.shape[1]
    if (K * a.element_size()) % 16 or (N * a.element_size()) % 16:
        raise ValueError(f"rows must be multiples of 16 bytes: K = {K}, N = {N}")
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    if M == 0 or N == 0:
        return c
    BLOCK_M = BLOCK_M or 32
    BLOCK_N = BLOCK_N or 32
    BLOCK_K = BLOCK_K or 32
    grid = (triton.cdiv(M, BLOCK_M), triton.cdiv(N, BLOCK_N))
    matmul_kernel[grid](a, b, c, M, N, K, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, BLOCK_K=BLOCK_K)
    return c
