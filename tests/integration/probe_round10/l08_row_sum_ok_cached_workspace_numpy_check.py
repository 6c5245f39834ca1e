"""Learner: a two-stage row sum. Stage 1 (grid M x chunks) writes one float32 partial sum per (row, chunk of 256
columns) into a workspace; stage 2 (grid M) adds a row's partials and stores the row's sum. The workspace is cached
at module level (allocated once with device=x.device, reused while big enough and on the same device), as
production code avoids an allocation per call. Before launching, x is checked
in numpy: `np.isfinite(x.detach().cpu().float().numpy()).all()`.

Right verdict: PASS (numpy only reads x; the workspace is memory torch allocated in an earlier call).
"""

import numpy as np
import torch
import triton
import triton.language as tl

_WORKSPACE = None


def _workspace(numel, device):
    global _WORKSPACE
    if _WORKSPACE is None or _WORKSPACE.numel() < numel or _WORKSPACE.device != device:
        _WORKSPACE = torch.empty(max(numel, 4096), dtype=torch.float32, device=device)
    return _WORKSPACE


@triton.jit
def partial_sum_kernel(x_ptr, ws_ptr, n_cols, n_chunks, stride_xm, stride_xn, CHUNK: tl.constexpr):
    row = tl.program_id(axis=0)
    chunk = tl.program_id(axis=1)
    cols = chunk * CHUNK + tl.arange(0, CHUNK)
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=cols < n_cols, other=0.0).to(tl.float32)
    tl.store(ws_ptr + row * n_chunks + chunk, tl.sum(x, axis=0))


@triton.jit
def finish_kernel(ws_ptr, out_ptr, n_chunks, BLOCK_C: tl.constexpr):
    row = tl.program_id(axis=0)
    idx = tl.arange(0, BLOCK_C)
    parts = tl.load(ws_ptr + row * n_chunks + idx, mask=idx < n_chunks, other=0.0)
    tl.store(out_ptr + row, tl.sum(parts, axis=0).to(out_ptr.dtype.element_ty))


def row_sum(x):
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    if not np.isfinite(x.detach().cpu().float().numpy()).all():
        raise ValueError("x holds inf or NaN")
    n_rows, n_cols = x.shape
    out = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return out
    CHUNK = 256
    n_chunks = max(1, triton.cdiv(n_cols, CHUNK))
    ws = _workspace(n_rows * n_chunks, x.device)
    partial_sum_kernel[(n_rows, n_chunks)](x, ws, n_cols, n_chunks, x.stride(0), x.stride(1), CHUNK=CHUNK)
    finish_kernel[(n_rows,)](ws, out, n_chunks, BLOCK_C=triton.next_power_of_2(n_chunks))
    return out
