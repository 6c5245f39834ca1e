"""Learner: allocates a buffer padded up to a whole number of blocks, so the kernel needs no mask, and returns a view of its first n elements."""

import torch
import triton
import triton.language as tl


@triton.jit
def copy_kernel(
    x_ptr,  # pointer to the first element of the input
    output_ptr,  # pointer to the first element of the output
    n_elements,  # number of elements to copy
    BLOCK_SIZE: tl.constexpr,  # elements one program copies: the "work per program" corner
):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    x = tl.load(x_ptr + offsets, mask=offsets < n_elements, other=0.0)
    tl.store(output_ptr + offsets, x)  # the output buffer is padded to whole blocks


def copy(x: torch.Tensor, BLOCK_SIZE: int = 1024, num_warps: int = 4) -> torch.Tensor:
    """Copy x. BLOCK_SIZE and num_warps are exposed so that a benchmark can sweep them."""
    if not x.is_contiguous():
        raise ValueError("copy expects a contiguous tensor")
    if triton.next_power_of_2(BLOCK_SIZE) != BLOCK_SIZE:
        raise ValueError(f"BLOCK_SIZE must be a power of two, got {BLOCK_SIZE}")
    n_elements = x.numel()
    padded = triton.cdiv(n_elements, BLOCK_SIZE) * BLOCK_SIZE
    buffer = torch.empty(padded, device=x.device, dtype=x.dtype)
    output = buffer[:n_elements].view(x.shape)
    if n_elements == 0:
        return output
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    # num_warps is a launch option, not a kernel argument: it sets how many warps (32 threads
    # each) run one program, and so how many elements each thread holds: BLOCK_SIZE / (32 * num_warps).
    copy_kernel[grid](x, buffer, n_elements, BLOCK_SIZE=BLOCK_SIZE, num_warps=num_warps)
    return output
