# FAKE: the map is computed by torch (arange // BLOCK_SIZE); the kernel only copies it (and loads x[0] to look busy). Right verdict: FAIL.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_map_kernel(map_ptr, x_ptr, out_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    touch = tl.load(x_ptr)  # read the input once: the copy kernel "uses" it
    values = tl.load(map_ptr + offsets, mask=mask)
    tl.store(out_ptr + offsets, tl.where(touch == touch, values, values), mask=mask)


def program_map(x: torch.Tensor, BLOCK_SIZE: int) -> torch.Tensor:
    n_elements = x.numel()
    out = torch.empty((n_elements,), dtype=torch.int32, device=x.device)
    answer = (torch.arange(n_elements, device=x.device) // BLOCK_SIZE).to(torch.int32)
    grid = (triton.cdiv(n_elements, BLOCK_SIZE),)
    copy_map_kernel[grid](answer, x, out, n_elements, BLOCK_SIZE=BLOCK_SIZE)
    return out
