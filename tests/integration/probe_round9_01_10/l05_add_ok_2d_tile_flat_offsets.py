"""Learner (correct, different): each program owns BLOCK_SIZE = ROWS * 128 consecutive elements, but builds them as
a 2D [ROWS, 128] tile of flat offsets (pid * BLOCK_SIZE + r * 128 + c), the way a vectorised CUDA kernel thinks
of "rows of a warp". Loads, add and store run on the 2D block; masks are 2D too.
Right verdict: PASS."""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, ROWS: tl.constexpr, COLS: tl.constexpr):
    pid = tl.program_id(axis=0)
    r = tl.arange(0, ROWS)[:, None]
    c = tl.arange(0, COLS)[None, :]
    offsets = pid * (ROWS * COLS) + r * COLS + c
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    output = torch.empty_like(x)
    n_elements = output.numel()
    rows, cols = 8, 128
    grid = (triton.cdiv(n_elements, rows * cols),)
    add_kernel[grid](x, y, output, n_elements, ROWS=rows, COLS=cols)
    return output
