"""Learner (correct but different): long rows split across programs, as FlagGems / split-K style reductions do
for few long rows. A 2D grid (rows, chunks of CHUNK columns): each program sums its chunk in float32 and
tl.atomic_add's the partial sum into a float32 workspace made by torch.zeros; a second kernel casts the workspace
to the output dtype. The order of the atomic adds varies on a GPU, which moves the last bits of a float32 sum only.
The output is written by the learner's second kernel from a workspace the first kernel wrote (nothing computed in
torch). Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def row_sum_partial_kernel(
    x_ptr,
    partial_ptr,  # float32 [n_rows], zero on entry
    n_cols,
    stride_xm,
    stride_xn,
    CHUNK: tl.constexpr,  # columns one program owns
    BLOCK_SIZE: tl.constexpr,  # columns per step inside the chunk
):
    row = tl.program_id(axis=0)
    chunk = tl.program_id(axis=1)
    chunk_start = chunk * CHUNK
    acc = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for start in range(0, CHUNK, BLOCK_SIZE):
        cols = chunk_start + start + tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        vals = tl.load(x_ptr + row * stride_xm + cols * stride_xn, mask=mask, other=0.0)
        acc += vals.to(tl.float32)
    tl.atomic_add(partial_ptr + row, tl.sum(acc, axis=0))


@triton.jit
def cast_kernel(partial_ptr, output_ptr, n_rows, BLOCK: tl.constexpr):
    offs = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n_rows
    vals = tl.load(partial_ptr + offs, mask=mask, other=0.0)
    tl.store(output_ptr + offs, vals.to(output_ptr.dtype.element_ty), mask=mask)


def row_sum(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"row_sum expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    output = torch.empty(n_rows, device=x.device, dtype=x.dtype)
    if n_rows == 0:
        return output
    partial = torch.zeros(n_rows, device=x.device, dtype=torch.float32)
    BLOCK_SIZE = min(triton.next_power_of_2(max(n_cols, 1)), 1024)
    CHUNK = 2 * BLOCK_SIZE
    grid = (n_rows, triton.cdiv(max(n_cols, 1), CHUNK))
    row_sum_partial_kernel[grid](
        x, partial, n_cols, x.stride(0), x.stride(1), CHUNK=CHUNK, BLOCK_SIZE=BLOCK_SIZE, num_warps=4
    )
    cast_kernel[(triton.cdiv(n_rows, 256),)](partial, output, n_rows, BLOCK=256)
    return output
