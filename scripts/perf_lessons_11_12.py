"""Time lessons 11-12's reference kernels against PyTorch on a CUDA GPU; print a table and one JSON object.

    python scripts/perf_lessons_11_12.py [--json-only] [--quick]

- FlashAttention forward (kernels/flash_attention.py) vs F.scaled_dot_product_attention with the flash backend only:
  seq 4096, d 128, batch 4 x heads 8 (= 32), fp16, causal and not. TFLOP/s from 4·B·H·S²·d (half for causal).
- RMS norm backward (kernels/rms_norm_backward.py, dx + two-stage dw) vs torch autograd's backward of F.rms_norm at
  [8192, 4096], fp16 and bf16. Only the backward is timed: the forward runs once, then y.backward(dy, retain_graph)
  is timed for both. GB/s from the bytes the backward must move: read x, dy, w; write dx, dw.
- Online softmax (kernels/online_softmax.py) vs torch.softmax on long rows, and lesson 8's one-block kernel
  (kernels/softmax.py) on the same rows: streaming works where one block no longer fits.

Each timing is triton.testing.do_bench's median (ms) with the 20th and 80th percentiles. Every kernel's result is
checked against the baseline before it is timed (a wrong kernel is reported, not timed). Numbers are printed with the
GPU name and the torch / triton versions; they go into the lesson texts between the MEASURED-RESULTS markers.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "kernels" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _bench(fn):
    import triton

    median, low, high = triton.testing.do_bench(fn, quantiles=[0.5, 0.2, 0.8], warmup=50, rep=300)
    return {"ms": median, "ms_p20": low, "ms_p80": high}


def attention_rows(quick: bool) -> list[dict]:
    import torch
    import torch.nn.functional as F
    from torch.nn.attention import SDPBackend, sdpa_kernel

    fa = _load("flash_attention")
    batch, heads, seq, d = (4, 8, 1024, 128) if quick else (4, 8, 4096, 128)
    rows = []
    gen = torch.Generator(device="cuda").manual_seed(0)
    q, k, v = (torch.randn(batch, heads, seq, d, device="cuda", dtype=torch.float16, generator=gen) for _ in range(3))
    for causal in (False, True):
        flops = 4 * batch * heads * seq * seq * d * (0.5 if causal else 1.0)
        row = {"op": "attention", "shape": f"B{batch} H{heads} S{seq} D{d}", "dtype": "float16", "causal": causal}
        with sdpa_kernel([SDPBackend.FLASH_ATTENTION]):
            expected = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            baseline = _bench(lambda c=causal: F.scaled_dot_product_attention(q, k, v, is_causal=c))
        got = fa.attention(q, k, v, causal=causal)
        err = (got.float() - expected.float()).abs().max().item()
        row["max_abs_err"] = err
        if err > 2e-2:
            row["error"] = f"reference kernel differs from SDPA by {err:.3g}: not timed"
            rows.append(row)
            continue
        mine = _bench(lambda c=causal: fa.attention(q, k, v, causal=c))
        row.update(kernel=mine, baseline=baseline, baseline_name="SDPA (flash backend)",
                   ratio=baseline["ms"] / mine["ms"],
                   kernel_tflops=flops / mine["ms"] * 1e-9, baseline_tflops=flops / baseline["ms"] * 1e-9,
                   bytes=4 * batch * heads * seq * d * 2)
        rows.append(row)
    return rows


def _backward(y, dy, *params):
    """One backward pass through the graph that produced y (kept with retain_graph), gradients reset first."""
    for p in params:
        p.grad = None
    y.backward(dy, retain_graph=True)


def rms_backward_rows(quick: bool) -> list[dict]:
    import torch
    import torch.nn.functional as F

    rb = _load("rms_norm_backward")
    M, N = (2048, 4096) if quick else (8192, 4096)
    rows = []
    for dtype in (torch.float16, torch.bfloat16):
        gen = torch.Generator(device="cuda").manual_seed(0)
        x = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
        w = torch.randn(N, device="cuda", dtype=dtype, generator=gen)
        dy = torch.randn(M, N, device="cuda", dtype=dtype, generator=gen)
        size = x.element_size()
        moved = (3 * M * N + 2 * N) * size  # read x, dy, w; write dx, dw
        row = {"op": "rms_norm_backward", "shape": f"[{M}, {N}]", "dtype": str(dtype).replace("torch.", "")}

        xt, wt = x.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
        yt = F.rms_norm(xt, (N,), wt, 1e-6)
        xm, wm = x.detach().clone().requires_grad_(), w.detach().clone().requires_grad_()
        ym = rb.rms_norm(xm, wm, 1e-6)
        yt.backward(dy, retain_graph=True)
        ym.backward(dy, retain_graph=True)
        errs = [(a.float() - b.float()).abs().max().item() for a, b in ((xm.grad, xt.grad), (wm.grad, wt.grad))]
        row["max_abs_err"] = {"dx": errs[0], "dw": errs[1]}
        tol_dw = 0.05 * max(1.0, wt.grad.float().abs().max().item())
        if errs[0] > 5e-2 or errs[1] > tol_dw:
            row["error"] = f"reference backward differs from torch autograd (dx {errs[0]:.3g}, dw {errs[1]:.3g})"
            rows.append(row)
            continue

        baseline = _bench(functools.partial(_backward, yt, dy, xt, wt))
        mine = _bench(functools.partial(_backward, ym, dy, xm, wm))
        first = (xm.grad.clone(), wm.grad.clone())
        _backward(ym, dy, xm, wm)
        row["deterministic"] = bool(torch.equal(first[0], xm.grad) and torch.equal(first[1], wm.grad))
        row.update(kernel=mine, baseline=baseline, baseline_name="torch autograd backward of F.rms_norm",
                   ratio=baseline["ms"] / mine["ms"], bytes=moved,
                   kernel_gbps=moved / mine["ms"] * 1e-6, baseline_gbps=moved / baseline["ms"] * 1e-6)
        rows.append(row)
    return rows


def online_softmax_rows(quick: bool) -> list[dict]:
    import torch

    osm = _load("online_softmax")
    rows = []
    shapes = [(4096, 4096), (64, 262_144)] if not quick else [(1024, 4096), (16, 262_144)]
    for M, N in shapes:
        x = torch.randn(M, N, device="cuda", dtype=torch.float32)
        row = {"op": "online_softmax", "shape": f"[{M}, {N}]", "dtype": "float32"}
        err = (osm.online_softmax(x) - torch.softmax(x, dim=-1)).abs().max().item()
        row["max_abs_err"] = err
        if err > 1e-5:
            row["error"] = f"differs from torch.softmax by {err:.3g}: not timed"
            rows.append(row)
            continue
        moved = 3 * M * N * 4
        mine = _bench(lambda x=x: osm.online_softmax(x))
        baseline = _bench(lambda x=x: torch.softmax(x, dim=-1))
        row.update(kernel=mine, baseline=baseline, baseline_name="torch.softmax", ratio=baseline["ms"] / mine["ms"],
                   bytes=moved, kernel_gbps=moved / mine["ms"] * 1e-6,
                   baseline_gbps=2 * M * N * 4 / baseline["ms"] * 1e-6)
        # Lesson 8's one-block kernel on the same rows: the whole row in one block (BLOCK_SIZE = next power of 2).
        try:
            one_block = _load("softmax")
            err = (one_block.softmax(x) - torch.softmax(x, dim=-1)).abs().max().item()
            ms = _bench(functools.partial(one_block.softmax, x))["ms"] if err <= 1e-5 else None
            row["lesson8_one_block"] = {"ms": ms, "max_abs_err": err,
                                        "gbps": (2 * M * N * 4 / ms * 1e-6) if ms else None}
        except Exception as exc:  # a row too long for one block may not compile at all: that is the point
            row["lesson8_one_block"] = {"error": f"{type(exc).__name__}: {str(exc)[:200]}"}
        rows.append(row)
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json-only", action="store_true", help="print only the JSON object")
    parser.add_argument("--quick", action="store_true", help="smaller shapes (a smoke test, not for the lesson text)")
    args = parser.parse_args(argv)
    import torch
    import triton

    if not torch.cuda.is_available():
        print("perf_lessons_11_12: needs a CUDA GPU (the interpreter's timings mean nothing)", file=sys.stderr)
        return 2
    rows = []
    for part in (attention_rows, rms_backward_rows, online_softmax_rows):
        try:
            rows.extend(part(args.quick))
        except Exception as exc:  # one failing part must not hide the others' numbers
            rows.append({"op": part.__name__, "error": f"{type(exc).__name__}: {exc}"})
    result = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
              "quick": args.quick, "rows": rows}
    if not args.json_only:
        print(f"{result['gpu']} · torch {result['torch']} · triton {result['triton']}"
              + (" · QUICK shapes" if args.quick else ""))
        print(f"{'op':<18} {'shape':<20} {'dtype':<9} {'causal':<6} {'kernel ms':>10} {'torch ms':>10} "
              f"{'ratio':>6}  throughput")
        for row in rows:
            if "error" in row:
                print(f"{row.get('op', ''):<18} {row.get('shape', ''):<20} ERROR {row['error']}")
                continue
            if "kernel_tflops" in row:
                rate = f"{row['kernel_tflops']:.0f} vs {row['baseline_tflops']:.0f} TFLOP/s"
            else:
                rate = f"{row['kernel_gbps']:.0f} vs {row['baseline_gbps']:.0f} GB/s"
            causal = "yes" if row.get("causal") else ("no" if "causal" in row else "")
            print(f"{row['op']:<18} {row['shape']:<20} {row['dtype']:<9} {causal:<6} {row['kernel']['ms']:>10.3f} "
                  f"{row['baseline']['ms']:>10.3f} {row['ratio']:>5.2f}x  {rate}")
            one = row.get("lesson8_one_block")
            if one is not None:
                what = one.get("error") or (f"{one['ms']:.3f} ms, {one['gbps']:.0f} GB/s" if one.get("ms")
                                            else f"wrong (max abs err {one['max_abs_err']:.3g})")
                print(f"{'':<18} lesson 8's one-block softmax on the same rows: {what}")
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
