"""Learner (wrong): the output is allocated as torch.empty(x.shape, dtype=x.dtype) — shape and dtype copied from x,
the device forgotten. torch puts it on the default device, the CPU. On the interpreter (CPU tensors) nothing shows;
on a GPU the kernel is handed a CPU pointer for a CUDA launch (Triton refuses it: "Pointer argument cannot be
accessed from Triton (cpu tensor?)").
Right verdict: FAIL (the output is not on x's device); the interpreter cannot see it at run time, but the source
says it."""

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
    output = torch.empty(x.shape, dtype=x.dtype)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output
