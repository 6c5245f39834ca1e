"""Probe round 8, 4/fix-oob, CORRECT: the learner removes the out-of-bounds access without a mask, the padding way
(common in hand-written CUDA). The wrapper copies x into a zero-filled buffer rounded up to a whole number of
blocks, allocates an output of that padded length, launches the unmasked kernel on the padded buffers (every lane
of every program is in bounds), and returns the first n elements of the padded output: a view of the storage the
kernel wrote. torch only moves x into the buffer; the ReLU of every returned element is computed by the kernel.
Extra memory traffic, but no access out of bounds and the right values. Right verdict: PASS.
"""

import torch
import triton
import triton.language as tl


@triton.jit
def relu_kernel(x_ptr, output_ptr, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offsets)
    tl.store(output_ptr + offsets, tl.maximum(x, 0.0))


def relu(x: torch.Tensor, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    n_elements = x.numel()
    n_blocks = triton.cdiv(n_elements, BLOCK_SIZE)
    padded = torch.zeros(n_blocks * BLOCK_SIZE, dtype=x.dtype, device=x.device)
    padded[:n_elements] = x
    output = torch.empty_like(padded)
    relu_kernel[(n_blocks,)](padded, output, BLOCK_SIZE=BLOCK_SIZE)
    return output[:n_elements]
