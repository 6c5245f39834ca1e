"""Learner (wrong): to use more programs on long rows, the learner splits each row over a 2D grid (row, chunk) and
lets each chunk program add its partial sum into the output with a plain read-modify-write,
tl.store(out, tl.load(out) + partial), on a float32 workspace zeroed in the wrapper (no tl.atomic_add). On the
interpreter the programs run one after another, so the sums come out right; on a GPU two chunk programs of one
row read the same old value and one partial sum is lost.
Right verdict: FAIL (race on the workspace: the load and store at the read-modify-write line), in the cases
with more than one chunk per row (N = 5000 with 1024-column chunks)."""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_partial_kernel(x_ptr, ws_ptr, n_cols, stride_xm, stride_xn, BLOCK_SIZE: tl.constexpr):
    row = tl.program_id(axis=0)
    chunk = tl.program_id(axis=1)
    cols = chunk * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=cols < n_cols, other=0.0)
    partial = tl.sum(x.to(tl.float32), axis=0)
    tl.store(ws_ptr + row, tl.load(ws_ptr + row) + partial)


@triton.jit
def cast_kernel(ws_ptr, output_ptr, n_rows, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_rows
    tl.store(output_ptr + offs, tl.load(ws_ptr + offs, mask=mask).to(output_ptr.dtype.element_ty), mask=mask)


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return output
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 1024)
    ws = torch.zeros(n_rows, device=x.device, dtype=torch.float32)
    grid = (n_rows, triton.cdiv(n_cols, BLOCK_SIZE))
    row_sum_partial_kernel[grid](x, ws, n_cols, x.stride(0), x.stride(1), BLOCK_SIZE=BLOCK_SIZE)
    cast_kernel[(triton.cdiv(n_rows, 256),)](ws, output, n_rows, BLOCK=256)
    return output
