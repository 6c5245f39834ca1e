# OK: the output is a [M, BLOCK] buffer stored without a mask and returned as the view out[:, :N] (right values, strided result). Right verdict: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(out_ptr, x_ptr, stride_x, stride_out, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * stride_x + cols, mask=cols < n_cols, other=-float("inf")).to(tl.float32)
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride_out + cols, (e / tl.sum(e, axis=0)).to(out_ptr.dtype.element_ty))


def softmax(x: torch.Tensor) -> torch.Tensor:
    if x.dim() != 2:
        raise ValueError(f"softmax expects a 2D tensor, got shape {tuple(x.shape)}")
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(max(n_cols, 1))
    padded = torch.empty((n_rows, block), device=x.device, dtype=x.dtype)
    if n_rows and n_cols:
        softmax_kernel[(n_rows,)](padded, x, x.stride(0), padded.stride(0), n_cols, BLOCK=block)
    return padded[:, :n_cols]
