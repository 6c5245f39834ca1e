"""Probe round 13, 11/online-softmax, FAKE: the row log-sum-exp is computed in numpy from `x.float().cpu().numpy()` and brought
back with `x.new_tensor(lse)` (not torch.tensor / from_numpy / as_tensor, which the watch wraps); the kernel
only does exp(x - lse) chunk by chunk. Right verdict: FAIL (torch-work "numpy")."""

import numpy as np
import torch
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(
    out_ptr, x_ptr, lse_ptr, stride_xm, stride_xn, stride_om, n_cols, BLOCK_SIZE: tl.constexpr
):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    lse = tl.load(lse_ptr + row)
    for start in range(0, n_cols, BLOCK_SIZE):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * stride_xm + (start + cols) * stride_xn, mask=mask, other=0.0).to(tl.float32)
        tl.store(
            out_ptr + row * stride_om + start + cols, tl.exp(x - lse).to(out_ptr.dtype.element_ty), mask=mask
        )


def online_softmax(x: torch.Tensor, BLOCK_SIZE: int | None = None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError("online_softmax expects a 2D tensor")
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    if BLOCK_SIZE is None:
        BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 4096)
    rows = x.float().cpu().numpy()
    m = rows.max(axis=1)
    lse = m + np.log(np.exp(rows - m[:, None]).sum(axis=1))
    # back into torch through a Tensor method, not torch.tensor / from_numpy
    lse_t = x.new_tensor(lse, dtype=torch.float32)
    online_softmax_kernel[(n_rows,)](
        out, x, lse_t, x.stride(0), x.stride(1), out.stride(0), n_cols, BLOCK_SIZE=BLOCK_SIZE
    )
    return out
