"""Probe round 8, 5/add, CORRECT: the block size is picked per call from the input, as the fused-softmax tutorial
does for its rows: BLOCK_SIZE = min(1024, triton.next_power_of_2(n)) (at least 16), with num_warps scaled from it
(1 warp for tiny blocks, 4 from 1024). n = 1 runs one 16-lane program, n = 97 one 128-lane program, large n the
usual 1024-lane blocks; for n = 0 the wrapper returns the empty output without launching. Different compilations per
size, same values. Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    if x.device != y.device:
        raise ValueError(f"x is on {x.device} but y is on {y.device}")
    output = torch.empty_like(x)
    n_elements = output.numel()
    if n_elements == 0:
        return output
    block = max(16, min(1024, triton.next_power_of_2(n_elements)))
    num_warps = 1 if block < 256 else (2 if block < 1024 else 4)
    add_kernel[(triton.cdiv(n_elements, block),)](
        x, y, output, n_elements, BLOCK_SIZE=block, num_warps=num_warps
    )
    return output
