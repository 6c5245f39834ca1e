"""Lesson 12's RMS norm backward *through autograd* (what the lesson's bench and issue 17 time), in variants:

    python scripts/rms_backward_autograd.py [--json PATH]      # [8192, 4096] fp16 and bf16, H200

  reference   kernels/rms_norm_backward.py as shipped (stage 2 adds a [64, 32] tile of `partial` per step)
  rows-dw     the same, with the exercise's stage 2: one partial row per step, and the SM count asked on every
              call (the reference until 2026-12-03)
  one-launch  kernels/rms_norm_backward_one_launch.py: the same math, stage 2 run by the last programs to start
              (one Triton launch per backward instead of two)
  one-uncapped  the same without maxnreg=128 (ptxas takes 134 registers at N = 4096: one program per SM)
  torch       autograd's backward of F.rms_norm

Each variant runs y.backward(dy, retain_graph=True) on one graph (gradients reset first), timed by
triton.testing.do_bench (median, 20th and 80th percentiles); the three are timed in turn, ROUNDS rounds, and the
best median of the rounds is kept (host jitter dominates a 0.1 ms backward); every round's median is printed too. dx/dw are checked against autograd first.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from pathlib import Path

import torch
import torch.nn.functional as F
import triton
from triton.testing import do_bench

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 5


def _load(name, folder="kernels"):
    spec = importlib.util.spec_from_file_location(name, ROOT / folder / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _rows_module():
    rb = _load("rms_norm_backward")
    dw_rows_kernel = _load("sweep_rms_backward", "scripts").dw_rows_kernel  # the exercise's stage 2

    def backward(dy, x, weight, rstd):
        M, N = x.shape
        dy = dy.contiguous()
        dx = torch.empty((M, N), device=x.device, dtype=x.dtype)
        dw = torch.empty((N,), device=weight.device, dtype=weight.dtype)
        BLOCK_N, num_warps = rb._row_block(N)
        P = max(1, min(2 * torch.cuda.get_device_properties(x.device).multi_processor_count, M))
        partial = torch.empty((P, N), device=x.device, dtype=torch.float32)
        rb.rms_norm_bwd_dx_kernel[(P,)](dy, x, weight, rstd, dx, partial, M, N, x.stride(0),
                                        BLOCK_N=BLOCK_N, num_warps=num_warps)
        dw_rows_kernel[(triton.cdiv(N, 128),)](partial, dw, P, N, BLOCK_N=128)
        return dx, dw

    rb.rms_norm_backward = backward  # the Function's backward looks the name up at call time
    return rb


class _NoCap:
    """A JIT function whose launches drop `maxnreg`: the one-launch kernel as ptxas allocates it uncapped."""

    def __init__(self, fn):
        self.fn = fn

    def __getitem__(self, grid):
        launch = self.fn[grid]
        return lambda *args, **kwargs: launch(*args, **{k: v for k, v in kwargs.items() if k != "maxnreg"})


def _one_launch_uncapped():
    module = _load("rms_norm_backward_one_launch")
    module.rms_norm_bwd_kernel = _NoCap(module.rms_norm_bwd_kernel)  # looked up at call time
    return module


def _timed(y, dy, leaves):
    def run():
        for leaf in leaves:
            leaf.grad = None
        y.backward(dy, retain_graph=True)

    return run


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    opts = parser.parse_args()
    M, N = 8192, 4096
    variants = {"reference": _load("rms_norm_backward"), "rows-dw": _rows_module(),
                "one-launch": _load("rms_norm_backward_one_launch"), "one-uncapped": _one_launch_uncapped()}
    print(torch.cuda.get_device_name(0), torch.__version__, triton.__version__)
    out = []
    for dtype in (torch.float16, torch.bfloat16):
        gen = torch.Generator(device="cuda").manual_seed(0)
        x = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
        w = torch.randn(N, device="cuda", dtype=dtype, generator=gen)
        dy = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
        runs = {}
        xt, wt = x.clone().requires_grad_(), w.clone().requires_grad_()
        yt = F.rms_norm(xt, (N,), wt, 1e-6)
        runs["torch"] = _timed(yt, dy, [xt, wt])
        yt.backward(dy, retain_graph=True)
        for name, module in variants.items():
            xm, wm = x.clone().requires_grad_(), w.clone().requires_grad_()
            ym = module.rms_norm(xm, wm, 1e-6)
            ym.backward(dy, retain_graph=True)
            err = max((xm.grad.float() - xt.grad.float()).abs().max().item(),
                      (wm.grad.float() - wt.grad.float()).abs().max().item() / max(1.0, wt.grad.float().abs().max().item()))
            first = (xm.grad.clone(), wm.grad.clone())
            runs[name] = _timed(ym, dy, [xm, wm])
            runs[name]()
            same = torch.equal(first[0], xm.grad) and torch.equal(first[1], wm.grad)
            print(f"  {name} {dtype}: max err {err:.3g}, deterministic {same}")
            if err > 0.05:
                print(f"  {name} differs from autograd", file=sys.stderr)
                return 1
        rounds: dict[str, list] = {name: [] for name in runs}
        for _ in range(ROUNDS):
            for name, fn in runs.items():
                rounds[name].append(do_bench(fn, warmup=50, rep=300, quantiles=[0.5, 0.2, 0.8]))
        best = {name: min(qs, key=lambda q: q[0]) for name, qs in rounds.items()}
        for name, q in best.items():
            medians = [r[0] for r in rounds[name]]
            row = {"variant": name, "dtype": str(dtype).replace("torch.", ""), "shape": [M, N],
                   "ms": q[0], "ms_p20": q[1], "ms_p80": q[2], "vs_torch": best["torch"][0] / q[0],
                   "round_medians_ms": medians}
            out.append(row)
            print(f"{name:<12} {row['dtype']:<9} {q[0] * 1e3:7.1f} µs  (p20 {q[1] * 1e3:.1f}, p80 {q[2] * 1e3:.1f})  "
                  f"{row['vs_torch']:.2f}x torch   rounds: " + " ".join(f"{m * 1e3:.1f}" for m in medians))
    if opts.json:
        Path(opts.json).write_text(json.dumps({"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
                                               "triton": triton.__version__, "rows": out}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
