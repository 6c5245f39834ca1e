"""Lesson 4 — a masked element-wise kernel: y = x * a + b for any length.

F5 runs it on 10 elements with BLOCK_SIZE=4 and shows your output beside torch's, with the bytes moved.
F6 verifies it on awkward lengths (1, the prime 97, BLOCK_SIZE - 1, BLOCK_SIZE + 1, 98432).
"""

import torch
import triton
import triton.language as tl


@triton.jit
def scale_shift_kernel(
    x_ptr,  # pointer to the input vector
    output_ptr,  # pointer to the output vector
    a,  # scale (runtime scalar)
    b,  # shift (runtime scalar)
    n_elements,  # number of elements (runtime value)
    BLOCK_SIZE: tl.constexpr,  # elements per program (compile-time constant)
):
    pid = tl.program_id(axis=0)

    # TODO 1: the BLOCK_SIZE element indices that belong to program `pid`.
    #         Right now every program works on the first block.
    offsets = tl.arange(0, BLOCK_SIZE)

    # TODO 2: a mask that is False for indices >= n_elements,
    #         passed to both tl.load (with other=) and tl.store.
    x = tl.load(x_ptr + offsets)

    # TODO 3: compute x * a + b.
    y = x

    tl.store(output_ptr + offsets, y)


def scale_shift(x: torch.Tensor, a: float, b: float, BLOCK_SIZE: int = 1024) -> torch.Tensor:
    if not x.is_contiguous():
        raise ValueError("x must be contiguous: the kernel indexes it as a flat array")
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    scale_shift_kernel[grid](x, output, a, b, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return output
