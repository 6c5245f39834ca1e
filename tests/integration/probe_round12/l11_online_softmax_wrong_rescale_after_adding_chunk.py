# WRONG: the running sum is rescaled after the chunk's terms are added, l = (l + sum(exp2(x - m_new))) * exp2(m - m_new), so the new chunk's terms are shrunk too (on the first chunk exp2(-inf) = 0 wipes them). Right verdict: FAIL, cause the rescale (line 18).
import torch
import triton
import triton.language as tl


@triton.jit
def online_softmax_kernel(out_ptr, x_ptr, s_xm, s_xn, s_om, n_cols, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_SIZE)
    m = tl.full([], -float("inf"), tl.float32)
    l = tl.zeros([], tl.float32)
    for start in range(0, n_cols, BLOCK_SIZE):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * s_xm + (start + cols) * s_xn, mask=mask, other=-float("inf"))
        x = x.to(tl.float32) * 1.4426950408889634
        m_new = tl.maximum(m, tl.max(x, axis=0))
        l = (l + tl.sum(tl.exp2(x - m_new), axis=0)) * tl.exp2(m - m_new)
        m = m_new
    for start in range(0, n_cols, BLOCK_SIZE):
        mask = start + cols < n_cols
        x = tl.load(x_ptr + row * s_xm + (start + cols) * s_xn, mask=mask, other=-float("inf"))
        p = tl.exp2(x.to(tl.float32) * 1.4426950408889634 - m) / l
        tl.store(out_ptr + row * s_om + start + cols, p.to(out_ptr.dtype.element_ty), mask=mask)


def online_softmax(x: torch.Tensor, BLOCK_SIZE: int | None = None) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"online_softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    out = torch.empty((n_rows, n_cols), device=x.device, dtype=x.dtype)
    if out.numel() == 0:
        return out
    block = BLOCK_SIZE or min(triton.next_power_of_2(n_cols), 1024)
    online_softmax_kernel[(n_rows,)](
        out, x, x.stride(0), x.stride(1), out.stride(0), n_cols, BLOCK_SIZE=block
    )
    return out
