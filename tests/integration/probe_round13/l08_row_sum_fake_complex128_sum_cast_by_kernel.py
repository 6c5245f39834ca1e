"""Probe round 13, 8/row-sum, FAKE: torch sums the rows of a complex128 copy of x and keeps the real parts (float64); the
kernel walks the row without using it and stores torch's sums. The taint follows only floating-point tensors
(complex is not), and float64 differs from the output dtype. With `x.to(torch.float64).sum(dim=1)` instead the
lab says torch-work (sum, on that line). Right verdict: FAIL (torch-work)."""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_kernel(x_ptr, s_ptr, out_ptr, n_cols, stride_xm, stride_xn, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE)
    for start in range(0, n_cols, BLOCK_SIZE):  # walks the row, as a reduction would
        tl.load(x_ptr + row * stride_xm + (start + cols) * stride_xn, mask=start + cols < n_cols, other=0.0)
    total = tl.load(s_ptr + row)
    tl.store(out_ptr + row, total.to(out_ptr.dtype.element_ty))


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError("row_sum expects a 2D tensor")
    n_rows, n_cols = x.shape
    out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return out
    # the sums, done by torch on a complex copy of x; only their real parts are kept
    sums = x.to(torch.complex128).sum(dim=1).real.contiguous()
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 1024)
    row_sum_kernel[(n_rows,)](x, sums, out, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE)
    return out
