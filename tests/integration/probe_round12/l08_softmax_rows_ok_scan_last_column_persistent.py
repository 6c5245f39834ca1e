# OK: a persistent grid walks row tiles; the row max and the row sum are the last column of tl.associative_scan (running max) and tl.cumsum. Right verdict: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def _max2(a, b):
    return tl.maximum(a, b)


@triton.jit
def softmax_kernel(out_ptr, x_ptr, s_xm, s_xn, s_om, n_rows, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    last = (cols == BLOCK - 1)[None, :]
    for start in range(tl.program_id(0) * ROWS, n_rows, tl.num_programs(0) * ROWS):
        rows = start + tl.arange(0, ROWS)
        mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
        x = tl.load(x_ptr + rows[:, None] * s_xm + cols[None, :] * s_xn, mask=mask, other=-float("inf")).to(
            tl.float32
        )
        row_max = tl.sum(tl.where(last, tl.associative_scan(x, 1, _max2), 0.0), axis=1)
        e = tl.exp(x - row_max[:, None])
        row_sum = tl.sum(tl.where(last, tl.cumsum(e, axis=1), 0.0), axis=1)
        tl.store(
            out_ptr + rows[:, None] * s_om + cols[None, :],
            (e / row_sum[:, None]).to(out_ptr.dtype.element_ty),
            mask=mask,
        )


def softmax(x: torch.Tensor, ROWS=None, num_warps=None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    if not x.is_floating_point():
        raise TypeError(f"softmax needs a floating-point tensor, got {x.dtype}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    block = triton.next_power_of_2(n_cols)
    rows = ROWS or max(1, min(4, 1024 // block))
    programs = min(triton.cdiv(n_rows, rows), 3)
    softmax_kernel[(programs,)](
        out,
        x,
        x.stride(0),
        x.stride(1),
        out.stride(0),
        n_rows,
        n_cols,
        ROWS=rows,
        BLOCK=block,
        num_warps=num_warps or 4,
    )
    return out
