"""Probe round 17, part c — 12/rms-norm-op — OK. The operators are made by calling triton_op on the host functions
(`rms_norm_forward_op = triton_op("tritonlab_l12::rms_norm_fwd", mutates_args=())(rms_norm_forward)`, a tuple
for mutates_args) instead of decorating them, and wrap_triton is applied once at import to module-level names
(`_fwd_kernel = wrap_triton(rms_norm_fwd_kernel)`) that the launches use. rms_norm still calls
torch.ops.tritonlab_l12.rms_norm_fwd, and _backward torch.ops.tritonlab_l12.rms_norm_bwd.
"""

import torch
import triton
import triton.language as tl
from torch.library import triton_op, wrap_triton


@triton.jit
def rms_norm_fwd_kernel(
    x_ptr,  # *x [M, N], rows stride_xm apart, unit stride along a row
    w_ptr,  # *w [N]
    y_ptr,  # *y [M, N], contiguous
    rstd_ptr,  # *r [M] fp32: saved for the backward
    N,  # row length
    stride_xm,  # elements between x[i, 0] and x[i + 1, 0]
    eps,  # added to the mean square
    BLOCK_N: tl.constexpr,  # power of two >= N: a row in one block
):
    row = tl.program_id(0).to(tl.int64)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = tl.rsqrt(tl.sum(x * x, axis=0) / N + eps)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    tl.store(y_ptr + row * N + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)
    tl.store(rstd_ptr + row, rstd)


@triton.jit
def rms_norm_bwd_dx_kernel(
    dy_ptr,  # *dy [M, N], contiguous
    x_ptr,  # *x [M, N], rows stride_xm apart
    w_ptr,  # *w [N]
    rstd_ptr,  # *r [M] fp32, from the forward
    dx_ptr,  # *dx [M, N], contiguous: written here
    partial_dw_ptr,  # *partial [P, N] fp32: row p written by program p (stage 1 of dw)
    M,
    N,  # rows, row length
    stride_xm,  # elements between x[i, 0] and x[i + 1, 0]
    BLOCK_N: tl.constexpr,  # power of two >= N
):
    pid = tl.program_id(0)
    n_programs = tl.num_programs(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    dw_acc = tl.zeros([BLOCK_N], dtype=tl.float32)  # this program's share of dw, in registers across its rows
    for row in range(pid, M, n_programs):  # rows pid, pid + P, pid + 2P, …: every row exactly once
        x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
        dy = tl.load(dy_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
        rstd = tl.load(rstd_ptr + row)
        x_hat = x * rstd
        g = dy * w
        dx = rstd * (g - x_hat * (tl.sum(g * x_hat, axis=0) / N))
        tl.store(dx_ptr + row * N + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
        dw_acc += dy * x_hat
    tl.store(partial_dw_ptr + pid * N + cols, dw_acc, mask=mask)


@triton.jit
def rms_norm_bwd_dw_kernel(
    partial_dw_ptr,  # *partial [P, N] fp32, from stage 1
    dw_ptr,  # *dw [N]: written here
    P,
    N,  # partial rows, row length
    BLOCK_N: tl.constexpr,  # columns per program
):
    cols = tl.program_id(0) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = cols < N
    total = tl.zeros([BLOCK_N], dtype=tl.float32)
    for p in range(P):  # always the same order: the result is bitwise reproducible
        total += tl.load(partial_dw_ptr + p * N + cols, mask=mask, other=0.0)
    tl.store(dw_ptr + cols, total.to(dw_ptr.dtype.element_ty), mask=mask)


# wrapped once, at import: the launches inside the operators go through these
_fwd_kernel = wrap_triton(rms_norm_fwd_kernel)
_bwd_dx_kernel = wrap_triton(rms_norm_bwd_dx_kernel)
_bwd_dw_kernel = wrap_triton(rms_norm_bwd_dw_kernel)


def _row_block(N: int) -> tuple[int, int]:
    BLOCK_N = max(16, triton.next_power_of_2(N))
    if BLOCK_N > 65536:
        raise ValueError(f"rows of {N} values do not fit one block; this kernel keeps a row in registers")
    return BLOCK_N, (4 if BLOCK_N <= 2048 else 8 if BLOCK_N <= 8192 else 16)


def rms_norm_forward(x: torch.Tensor, weight: torch.Tensor, eps: float) -> tuple[torch.Tensor, torch.Tensor]:
    """y and the saved 1/rms per row (fp32). An operator: torch.compile sees one node, and inside it the kernel."""
    M, N = x.shape
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
    if M == 0:
        return y, rstd
    BLOCK_N, num_warps = _row_block(N)
    _fwd_kernel[(M,)](x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=BLOCK_N, num_warps=num_warps)
    return y, rstd


def rms_norm_backward(
    dy: torch.Tensor, x: torch.Tensor, weight: torch.Tensor, rstd: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """(dx, dw) from the upstream gradient dy and what the forward saved."""
    M, N = x.shape
    dy = dy.contiguous()
    dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
    dw = torch.empty((N,), device=weight.device, dtype=weight.dtype)
    BLOCK_N, num_warps = _row_block(N)
    if x.device.type == "cuda":
        P = 2 * torch.cuda.get_device_properties(x.device).multi_processor_count  # as many as stay resident
    else:
        P = 4  # the interpreter runs programs one after another: a few are enough to show the two stages
    P = max(1, min(P, M))
    partial = torch.empty((P, N), device=x.device, dtype=torch.float32)
    if M > 0:
        _bwd_dx_kernel[(P,)](
            dy, x, weight, rstd, dx, partial, M, N, x.stride(0), BLOCK_N=BLOCK_N, num_warps=num_warps
        )
    else:
        partial.zero_()
    DW_BLOCK = 128
    _bwd_dw_kernel[(triton.cdiv(N, DW_BLOCK),)](partial, dw, P, N, BLOCK_N=DW_BLOCK)
    return dx, dw


def _setup_context(ctx, inputs, output):
    """Runs after the forward: keep what the backward needs (x, weight, rstd), nothing else."""
    x, weight, _eps = inputs
    _y, rstd = output
    ctx.save_for_backward(x, weight, rstd)
    ctx.mark_non_differentiable(rstd)


def _backward(ctx, dy, _drstd):
    """One gradient per forward input (x, weight, eps); rstd is an output nobody differentiates."""
    x, weight, rstd = ctx.saved_tensors
    dx, dw = torch.ops.tritonlab_l12.rms_norm_bwd(dy, x, weight, rstd)
    return dx, dw, None


# Registered by calling triton_op rather than decorating: the plain host functions stay importable under
# their own names for a direct test, and the operators are what the rest of the file uses.
rms_norm_forward_op = triton_op("tritonlab_l12::rms_norm_fwd", mutates_args=())(rms_norm_forward)
rms_norm_backward_op = triton_op("tritonlab_l12::rms_norm_bwd", mutates_args=())(rms_norm_backward)
rms_norm_forward_op.register_autograd(_backward, setup_context=_setup_context)


def _validate(x, weight):
    if x.dim() != 2 or weight.dim() != 1:
        raise ValueError(f"expected x 2D and weight 1D, got {x.dim()}D and {weight.dim()}D")
    if weight.shape[0] != x.shape[1]:
        raise ValueError(f"weight has {weight.shape[0]} values, rows have {x.shape[1]}")
    if x.device != weight.device:
        raise ValueError(f"x is on {x.device}, weight is on {weight.device}")
    if x.dtype != weight.dtype:
        raise TypeError(f"x is {x.dtype}, weight is {weight.dtype}")
    if x.stride(-1) != 1:
        raise ValueError("x must have unit stride along its rows")


def rms_norm(x, weight, eps=1e-6):
    """F.rms_norm(x, (N,), weight, eps) for a 2D x [M, N], through the registered operator."""
    _validate(x, weight)
    y, _ = torch.ops.tritonlab_l12.rms_norm_fwd(x, weight.contiguous(), eps)
    return y
