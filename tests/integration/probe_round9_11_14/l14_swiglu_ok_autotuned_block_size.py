"""Learner: the fused SwiGLU with @triton.autotune over BLOCK_SIZE and num_warps (key: n_elements), as in the
official tutorials and Liger's elementwise kernels; the grid is a lambda over the chosen BLOCK_SIZE. Flat over
a.numel(), fp32 math, one rounding on the store. Own tests under __main__.

Right verdict: PASS (every case, float32, float16, bfloat16; rejects raise before any launch).
"""

import torch
import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({"BLOCK_SIZE": 256}, num_warps=2),
        triton.Config({"BLOCK_SIZE": 1024}, num_warps=4),
        triton.Config({"BLOCK_SIZE": 4096}, num_warps=8),
    ],
    key=["n_elements"],
)
@triton.jit
def _swiglu_fwd(a_ptr, b_ptr, c_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid.to(tl.int64) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offs < n_elements
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    c = a * tl.sigmoid(a) * b
    tl.store(c_ptr + offs, c.to(c_ptr.dtype.element_ty), mask=mask)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError(f"shapes differ: {tuple(a.shape)} vs {tuple(b.shape)}")
    if a.dtype != b.dtype:
        raise TypeError(f"dtypes differ: {a.dtype} vs {b.dtype}")
    if a.device != b.device:
        raise ValueError(f"devices differ: {a.device} vs {b.device}")
    if a.dtype not in (torch.float32, torch.float16, torch.bfloat16):
        raise TypeError(f"unsupported dtype {a.dtype}")
    a, b = a.contiguous(), b.contiguous()
    c = torch.empty_like(a)
    n = a.numel()
    if n == 0:
        return c
    grid = lambda meta: (triton.cdiv(n, meta["BLOCK_SIZE"]),)
    _swiglu_fwd[grid](a, b, c, n)
    return c


if __name__ == "__main__":
    import torch.nn.functional as F

    for shape in [(1, 1), (3, 257), (17, 1025)]:
        for dt in (torch.float32, torch.float16, torch.bfloat16):
            a, b = torch.randn(shape, dtype=dt) * 3, torch.randn(shape, dtype=dt)
            torch.testing.assert_close(swiglu(a, b), (F.silu(a.float()) * b.float()).to(dt))
    print("ok")
