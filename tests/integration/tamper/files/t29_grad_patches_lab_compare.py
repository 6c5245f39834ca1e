# expect: tampered
# exercise: 12/rms-norm-backward
# ruff: noqa  (a hostile learner file: its oddities are the point)
# The forward is a real kernel; the backward is torch autograd on a detached copy of a *wrong* expression (rstd
# treated as a constant), and the lab's comparison is patched through sys.modules so that nothing is compared.
# Before issue #12's plan split this passed: the whole case (reference, comparison, verdict) ran in this process.
import sys

import torch
import triton
import triton.language as tl


@triton.jit
def rms_norm_fwd_kernel(x_ptr, w_ptr, y_ptr, N, eps, BLOCK_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_N)
    mask = cols < N
    x = tl.load(x_ptr + row * N + cols, mask=mask, other=0.0).to(tl.float32)
    w = tl.load(w_ptr + cols, mask=mask, other=0.0).to(tl.float32)
    rstd = 1.0 / tl.sqrt(tl.sum(x * x, axis=0) / N + eps)
    tl.store(y_ptr + row * N + cols, (x * rstd * w).to(y_ptr.dtype.element_ty), mask=mask)


def _no_compare(*args, **kwargs):
    return None


for _name, _module in list(sys.modules.items()):
    if _name.startswith("tritonlab.engine.outputs") and _module is not None:
        _module.Plan.compare = _no_compare
        _module.Plan.compare_bits = _no_compare
        _module.op_diagnoses = lambda *a, **k: []
    if _name == "tritonlab.engine.diagnose" and _module is not None:
        _module.diagnose = lambda got, expected, **kw: {"diagnoses": [], "mismatches": 0}


class _Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w, eps):
        y = torch.empty_like(x)
        n = x.shape[-1]
        rms_norm_fwd_kernel[(x.shape[0],)](x, w, y, n, eps, BLOCK_N=triton.next_power_of_2(n))
        ctx.save_for_backward(x, w)
        ctx.eps = eps
        return y

    @staticmethod
    def backward(ctx, dy):
        x, w = ctx.saved_tensors
        with torch.enable_grad():
            xc = x.detach().float().requires_grad_(True)
            wc = w.detach().float().requires_grad_(True)
            rstd = torch.rsqrt(xc.detach().pow(2).mean(-1, keepdim=True) + ctx.eps)  # a constant: wrong dx
            (xc * rstd * wc).backward(dy.float())
        return xc.grad.to(x.dtype), wc.grad.to(w.dtype), None


def rms_norm(x, weight, eps=1e-6):
    return _Fn.apply(x.contiguous(), weight.contiguous(), eps)
