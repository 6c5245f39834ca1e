"""Probe round 15c, 11/online-softmax, CORRECT: a persistent grid (at most 8 programs walk the rows with
`tl.range(pid, n_rows, num_programs)`), pass 1 takes two chunks per trip through a `@triton.jit` merge helper (the
second chunk may lie wholly past the row's end: all -inf, it changes nothing), int64 row offsets.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl

LOG2E = tl.constexpr(1.4426950408889634)


@triton.jit
def _merge(m, l, z):
    """Fold one chunk z (base-2 units, padding -inf) into the running max m and sum l."""
    m_new = tl.maximum(m, tl.max(z, axis=0))
    l = l * tl.exp2(m - m_new) + tl.sum(tl.exp2(z - m_new), axis=0)
    return m_new, l


@triton.jit
def softmax_rows_kernel(
    out_ptr, x_ptr, n_rows, n_cols, x_row_stride, x_col_stride, out_row_stride, BLOCK_SIZE: tl.constexpr
):
    pid = tl.program_id(0)
    nprog = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_SIZE)
    for row in tl.range(pid, n_rows, nprog):
        x_row = x_ptr + row.to(tl.int64) * x_row_stride
        o_row = out_ptr + row.to(tl.int64) * out_row_stride
        m = tl.full([], float("-inf"), tl.float32)
        l = tl.full([], 0.0, tl.float32)
        for start in range(0, n_cols, 2 * BLOCK_SIZE):
            c0 = start + cols
            c1 = start + BLOCK_SIZE + cols
            z0 = tl.load(x_row + c0 * x_col_stride, mask=c0 < n_cols, other=float("-inf")).to(tl.float32)
            z1 = tl.load(x_row + c1 * x_col_stride, mask=c1 < n_cols, other=float("-inf")).to(tl.float32)
            m, l = _merge(m, l, z0 * LOG2E)
            m, l = _merge(m, l, z1 * LOG2E)
        inv_l = 1.0 / l
        for start in range(0, n_cols, BLOCK_SIZE):
            c = start + cols
            z = tl.load(x_row + c * x_col_stride, mask=c < n_cols, other=float("-inf")).to(tl.float32)
            p = tl.exp2(z * LOG2E - m) * inv_l
            tl.store(o_row + c, p.to(out_ptr.dtype.element_ty), mask=c < n_cols)


def online_softmax(x: torch.Tensor, BLOCK_SIZE: int | None = None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"online_softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"online_softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    if BLOCK_SIZE is None:
        BLOCK_SIZE = min(triton.next_power_of_2(n_cols), 2048)
    programs = min(n_rows, 8)
    softmax_rows_kernel[(programs,)](
        out, x, n_rows, n_cols, x.stride(0), x.stride(1), out.stride(0), BLOCK_SIZE=BLOCK_SIZE
    )
    return out
