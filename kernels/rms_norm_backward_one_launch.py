"""Lesson 12, the next step after rms_norm_backward.py: the same backward in ONE kernel launch.

Why: at [8192, 4096] the two kernels of rms_norm_backward.py take ~71 µs on an H200 against torch's ~114 µs, yet
through `y.backward(dy)` the whole pass is often slower than torch's, because the host is the limit there: a Python
autograd node, three allocations and two Triton launches (lesson 12, "The benchmark"). This file removes one launch.

The math and the determinism are those of rms_norm_backward.py:
    dx = r · (g - x̂ · mean(g · x̂)),  g = dy · w        per row
    dw = Σ_rows dy · x̂                                  stage 1: P partial rows; stage 2: sum them in a fixed order

What changes is who runs stage 2. The grid has P + C programs (C = column blocks of dw). The first P programs to
START take stage 1; the other C wait until all P have written their partial row, then each sums one block of
columns, as the second kernel did. The waiting needs two counters, zeroed before the launch:

    counters[0]  hands out roles in the order programs start (a ticket), not by program_id
    counters[1]  how many stage-1 programs have finished writing their partial row

Why tickets and not program_id: the GPU may start programs in any order, and a waiting program holds its place on
an SM. With roles by program_id, the C waiting programs could occupy the slots a stage-1 program needs, and wait
forever. With tickets, a stage-2 role only goes to a program after all P stage-1 tickets were taken, by programs
that are already running and wait for nothing: the wait always ends. On the CPU interpreter, programs run one
after another in order, so stage 1 has finished before the first stage-2 program asks.

Memory order: a stage-1 program's threads write its partial row; a CTA barrier, then one release atomic publishes
"done". A stage-2 program spins on an acquire atomic, then a barrier, then reads the partials. Without the
release/acquire pair (or the barrier) a stage-2 program could read a partial row before it is written.
"""

import torch
import triton
import triton.language as tl


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
def rms_norm_bwd_kernel(
    dy_ptr,  # *dy [M, N], contiguous
    x_ptr,  # *x [M, N], rows stride_xm apart
    w_ptr,  # *w [N]
    rstd_ptr,  # *r [M] fp32, from the forward
    dx_ptr,  # *dx [M, N], contiguous: written here
    dw_ptr,  # *dw [N]: written here
    partial_dw_ptr,  # *partial [P, N] fp32: row p written by the stage-1 program holding ticket p
    counters_ptr,  # *i32 [2], zero before the launch: tickets handed out, stage-1 programs finished
    M, N,  # rows, row length
    stride_xm,  # elements between x[i, 0] and x[i + 1, 0]
    P,  # stage-1 programs; the grid is P + cdiv(N, DW_BLOCK)
    BLOCK_N: tl.constexpr,  # power of two >= N: a row in one block (stage 1)
    DW_BLOCK: tl.constexpr,  # columns of dw per stage-2 program
    BLOCK_P: tl.constexpr,  # partial rows a stage-2 program adds per step
):
    ticket = tl.atomic_add(counters_ptr, 1)  # 0, 1, 2, … in the order programs start
    if ticket < P:
        # Stage 1, exactly rms_norm_backward.py's dx kernel with ticket in place of program_id.
        cols = tl.arange(0, BLOCK_N)
        mask = cols < N
        w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
        dw_acc = tl.zeros([BLOCK_N], dtype=tl.float32)
        for row in range(ticket, M, P):  # rows ticket, ticket + P, …: every row exactly once
            x = tl.load(x_ptr + row * stride_xm + cols, mask=mask, other=0.0).to(tl.float32)
            dy = tl.load(dy_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
            rstd = tl.load(rstd_ptr + row)
            x_hat = x * rstd
            g = dy * w
            dx = rstd * (g - x_hat * (tl.sum(g * x_hat, axis=0) / N))
            tl.store(dx_ptr + row * N + cols, dx.to(dx_ptr.dtype.element_ty), mask=mask)
            dw_acc += dy * x_hat
        tl.store(partial_dw_ptr + ticket * N + cols, dw_acc, mask=mask)
        tl.debug_barrier()  # every thread's share of the partial row is written before …
        tl.atomic_add(counters_ptr + 1, 1, sem="release")  # … it is published
    else:
        # Stage 2: wait for all P partial rows, then sum one block of columns in a fixed order (as the second
        # kernel of rms_norm_backward.py did), so dw has the same bits on every run.
        while tl.atomic_add(counters_ptr + 1, 0, sem="acquire") < P:
            pass
        tl.debug_barrier()  # no thread reads a partial row before the acquire above has seen all P
        # (Its own names: a name set in both branches of an `if` must have one type, and these blocks differ.)
        dw_cols = (ticket - P) * DW_BLOCK + tl.arange(0, DW_BLOCK)
        dw_mask = dw_cols < N
        total = tl.zeros([BLOCK_P, DW_BLOCK], dtype=tl.float32)
        for start in range(0, P, BLOCK_P):
            rows = start + tl.arange(0, BLOCK_P)
            tile = (rows[:, None] < P) & dw_mask[None, :]
            total += tl.load(partial_dw_ptr + rows[:, None] * N + dw_cols[None, :], mask=tile, other=0.0)
        tl.store(dw_ptr + dw_cols, tl.sum(total, axis=0).to(dw_ptr.dtype.element_ty), mask=dw_mask)


def _row_block(N: int) -> tuple[int, int]:
    BLOCK_N = max(16, triton.next_power_of_2(N))
    if BLOCK_N > 65536:
        raise ValueError(f"rows of {N} values do not fit one block; this kernel keeps a row in registers")
    return BLOCK_N, (4 if BLOCK_N <= 2048 else 8 if BLOCK_N <= 8192 else 16)


_SM_COUNT: dict[int, int] = {}  # per GPU, asked once: not on every backward


def _programs(device: torch.device) -> int:
    """Stage 1's program count: 2 per SM on a GPU (as many as stay resident at N = 4096)."""
    if device.type != "cuda":
        return 4  # the interpreter runs programs one after another: a few are enough to show the two stages
    index = device.index if device.index is not None else torch.cuda.current_device()
    if index not in _SM_COUNT:
        _SM_COUNT[index] = torch.cuda.get_device_properties(index).multi_processor_count
    return 2 * _SM_COUNT[index]


DW_BLOCK = 32  # 128 stage-2 programs of [64, 32] tiles at N = 4096


def rms_norm_forward(x, weight, eps):
    """y and the saved 1/rms per row (fp32)."""
    M, N = x.shape
    y = torch.empty((M, N), device=x.device, dtype=x.dtype)
    rstd = torch.empty((M,), device=x.device, dtype=torch.float32)
    if M == 0:
        return y, rstd
    BLOCK_N, num_warps = _row_block(N)
    rms_norm_fwd_kernel[(M,)](x, weight, y, rstd, N, x.stride(0), eps, BLOCK_N=BLOCK_N, num_warps=num_warps)
    return y, rstd


def rms_norm_backward(dy, x, weight, rstd):
    """(dx, dw) from the upstream gradient dy and what the forward saved: one launch."""
    M, N = x.shape
    dy = dy.contiguous()
    dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
    dw = torch.empty((N,), device=weight.device, dtype=weight.dtype)
    BLOCK_N, num_warps = _row_block(N)
    P = max(1, min(_programs(x.device), M))  # M = 0: one program writes a zero partial row
    partial = torch.empty((P, N), device=x.device, dtype=torch.float32)
    counters = torch.zeros((2,), device=x.device, dtype=torch.int32)  # fresh per call: nothing left over
    grid = (P + triton.cdiv(N, DW_BLOCK),)
    # Two programs per SM at 8 warps need <= 65,536 / (2 · 256) = 128 registers per thread. The stage-2 branch
    # costs ptxas a few more than the two-kernel version's dx kernel (134 against 128 at N = 4096, sm_90, Triton
    # 3.9), which would leave ONE program per SM. Capped at 128 it compiles with no spills (cuobjdump: 127, stack 0).
    cap = {"maxnreg": 128} if x.is_cuda and num_warps == 8 and BLOCK_N <= 4096 else {}
    rms_norm_bwd_kernel[grid](dy, x, weight, rstd, dx, dw, partial, counters, M, N, x.stride(0), P,
                              BLOCK_N=BLOCK_N, DW_BLOCK=DW_BLOCK, BLOCK_P=64, num_warps=num_warps, **cap)
    return dx, dw


class RMSNormFunction(torch.autograd.Function):
    """Autograd calls forward() in the forward pass and backward() with ∂L/∂y when .backward() reaches y."""

    @staticmethod
    def forward(ctx, x, weight, eps):
        y, rstd = rms_norm_forward(x, weight, eps)
        ctx.save_for_backward(x, weight, rstd)
        return y

    @staticmethod
    def backward(ctx, dy):
        x, weight, rstd = ctx.saved_tensors
        dx, dw = rms_norm_backward(dy, x, weight, rstd)
        return dx, dw, None


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
    """F.rms_norm(x, (N,), weight, eps) for a 2D x [M, N], differentiable in x and weight."""
    _validate(x, weight)
    return RMSNormFunction.apply(x, weight.contiguous(), eps)
