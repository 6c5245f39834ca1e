# OK: forward and backward are torch.library.custom_op operators (each launching its kernel), joined with register_autograd instead of an autograd.Function. Right verdict: PASS.
import torch
import triton
import triton.language as tl


@triton.jit
def fwd_kernel(a_ptr, b_ptr, c_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(c_ptr + offs, (a * tl.sigmoid(a) * b).to(c_ptr.dtype.element_ty), mask=mask)


@triton.jit
def bwd_kernel(dc_ptr, a_ptr, b_ptr, da_ptr, db_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    dc = tl.load(dc_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    a = tl.load(a_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    s = tl.sigmoid(a)
    tl.store(db_ptr + offs, (dc * a * s).to(db_ptr.dtype.element_ty), mask=mask)
    tl.store(da_ptr + offs, (dc * b * s * (1.0 + a * (1.0 - s))).to(da_ptr.dtype.element_ty), mask=mask)


@torch.library.custom_op("p12swiglu::fwd", mutates_args=())
def swiglu_fwd(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    c = torch.empty_like(a)
    n = a.numel()
    if n:
        fwd_kernel[(triton.cdiv(n, 256),)](a, b, c, n, BLOCK=256)
    return c


@torch.library.custom_op("p12swiglu::bwd", mutates_args=())
def swiglu_bwd(dc: torch.Tensor, a: torch.Tensor, b: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    da, db = torch.empty_like(a), torch.empty_like(b)
    n = a.numel()
    if n:
        bwd_kernel[(triton.cdiv(n, 256),)](dc, a, b, da, db, n, BLOCK=256)
    return da, db


def _setup(ctx, inputs, output):
    ctx.save_for_backward(*inputs)


def _backward(ctx, dc):
    a, b = ctx.saved_tensors
    return swiglu_bwd(dc.contiguous(), a, b)


swiglu_fwd.register_autograd(_backward, setup_context=_setup)


def swiglu(a, b):
    if a.shape != b.shape:
        raise ValueError("a and b must have one shape")
    if a.dtype != b.dtype:
        raise TypeError("a and b must have one dtype")
    if a.device != b.device:
        raise ValueError("a and b are on different devices")
    if not a.is_floating_point():
        raise TypeError("swiglu needs floating-point inputs")
    return swiglu_fwd(a.contiguous(), b.contiguous())
