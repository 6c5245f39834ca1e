# ruff: noqa
# WRONG for this Triton (3.9): a learner copying an older tutorial reads/writes the tile through
# tl.make_block_ptr, which Triton 3.9 removed (NotImplementedError "Block pointers have been removed in favor of
# the tensor descriptor API").  The algorithm is otherwise right (1D grid split into pid_m/pid_n).
# Teacher: FAIL, compile error on the first make_block_ptr line (line 28) quoting Triton's message.
import torch
import triton
import triton.language as tl


@triton.jit
def copy_2d_kernel(
    x_ptr,
    output_ptr,
    n_rows,
    n_cols,
    stride_xm,
    stride_xn,
    stride_om,
    stride_on,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
):
    pid = tl.program_id(0)
    tiles_n = tl.cdiv(n_cols, BLOCK_N)
    pid_m = pid // tiles_n
    pid_n = pid % tiles_n
    src = tl.make_block_ptr(
        base=x_ptr,
        shape=(n_rows, n_cols),
        strides=(stride_xm, stride_xn),
        offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
        block_shape=(BLOCK_M, BLOCK_N),
        order=(0, 1),
    )
    dst = tl.make_block_ptr(
        base=output_ptr,
        shape=(n_rows, n_cols),
        strides=(stride_om, stride_on),
        offsets=(pid_m * BLOCK_M, pid_n * BLOCK_N),
        block_shape=(BLOCK_M, BLOCK_N),
        order=(1, 0),
    )
    tile = tl.load(src, boundary_check=(0, 1))
    tl.store(dst, tile, boundary_check=(0, 1))


def copy_2d(x: torch.Tensor, BLOCK_M: int = 32, BLOCK_N: int = 32) -> torch.Tensor:
    if x.ndim != 2:
        raise ValueError("2D only")
    M, N = x.shape
    out = torch.empty((M, N), dtype=x.dtype, device=x.device)
    if out.numel() == 0:
        return out
    grid = (triton.cdiv(M, BLOCK_M) * triton.cdiv(N, BLOCK_N),)
    copy_2d_kernel[grid](
        x, out, M, N, x.stride(0), x.stride(1), out.stride(0), out.stride(1), BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N
    )
    return out
