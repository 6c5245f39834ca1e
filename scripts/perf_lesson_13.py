"""Lesson 13's ladder and the capstone solutions, timed against torch on a GPU: one process, do_bench medians.

    python scripts/perf_lesson_13.py --json lesson13.json

Rungs (each checked against torch before it is timed: a fast wrong kernel is listed as wrong, not timed):
  lesson 9          kernels/matmul.py              one program per tile, pointer loads
  persistent        kernels/matmul_persistent.py   one program per SM, grouped tile loop, pointer loads
  persistent+TMA    kernels/matmul_descriptors.py  device-side tensor descriptors
  +warp-specialize  kernels/matmul_descriptors.py  warp_specialize=True
  torch             torch.matmul (cuBLAS)
at 4096³ and 8192³ in fp16 and bf16; then the capstone kernels (SwiGLU, cross-entropy) against eager torch.
The ratio is torch_ms / kernel_ms (>= 1: the kernel is faster). The numbers fill the placeholder table in
lessons/13-hopper/text.*.md. Not a test: nothing here asserts a time. A rung whose Triton feature is missing is
reported as "unsupported" with the error, so the script also runs on Triton 3.6.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
from pathlib import Path

import torch
import torch.nn.functional as F
import triton
from triton.testing import do_bench

KERNELS = Path(__file__).resolve().parents[1] / "kernels"


def load(name: str):
    """Import a kernel file by path, as the lab does (what is timed is what the learner reads)."""
    spec = importlib.util.spec_from_file_location(f"kernels_{name}", KERNELS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench(fn) -> dict:
    median, q20, q80 = do_bench(fn, quantiles=[0.5, 0.2, 0.8])
    return {"ms": median, "ms_q20": q20, "ms_q80": q80}


def row(group, name, shape, dtype, fn, torch_fn, want, atol, rtol, flops=None, nbytes=None) -> dict:
    out = {"group": group, "kernel": name, "shape": shape, "dtype": str(dtype).replace("torch.", "")}
    try:
        got = fn()
        torch.cuda.synchronize()
        bad = int((~torch.isclose(got.float(), want.float(), atol=atol, rtol=rtol)).sum())
        if bad > got.numel() // 1000:
            return dict(out, status="wrong", mismatches=bad)
        del got
        mine, ref = bench(fn), bench(torch_fn)
    except Exception as exc:  # noqa: BLE001 - a rung this Triton cannot compile is reported, not fatal
        return dict(out, status="unsupported", error=f"{type(exc).__name__}: {str(exc)[:300]}")
    out.update(status="ok", **mine, torch_ms=ref["ms"], torch_ms_q20=ref["ms_q20"], torch_ms_q80=ref["ms_q80"],
               ratio=ref["ms"] / mine["ms"])
    if flops:
        out["tflops"] = flops / mine["ms"] / 1e9
        out["torch_tflops"] = flops / ref["ms"] / 1e9
    if nbytes:
        out["gbps"] = nbytes / mine["ms"] / 1e6
        out["torch_gbps"] = nbytes / ref["ms"] / 1e6
    return out


def ladder(sizes, dtypes) -> list[dict]:
    lesson9, persistent, descriptors = load("matmul"), load("matmul_persistent"), load("matmul_descriptors")
    rows = []
    for n in sizes:
        for dtype in dtypes:
            a = torch.randn(n, n, device="cuda", dtype=dtype)
            b = torch.randn(n, n, device="cuda", dtype=dtype)
            want = torch.matmul(a, b)
            flops, shape = 2 * n**3, f"{n}x{n}x{n}"
            rungs = [
                ("lesson 9", lambda a=a, b=b: lesson9.matmul(a, b)),
                ("persistent", lambda a=a, b=b: persistent.matmul(a, b)),
                ("persistent+TMA", lambda a=a, b=b: descriptors.matmul(a, b)),
                ("+warp-specialize", lambda a=a, b=b: descriptors.matmul(a, b, warp_specialize=True)),
            ]
            for name, fn in rungs:
                rows.append(row("ladder", name, shape, dtype, fn, lambda a=a, b=b: torch.matmul(a, b), want,
                                5e-2, 2e-2, flops=flops))
                print(_line(rows[-1]), flush=True)
            del a, b, want
            torch.cuda.empty_cache()
    return rows


def capstone() -> list[dict]:
    swiglu, ce = load("swiglu"), load("cross_entropy")
    rows = []
    for m, n in ((4096, 14336), (8192, 14336)):
        a = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
        b = torch.randn(m, n, device="cuda", dtype=torch.bfloat16)
        rows.append(row("capstone", "swiglu", f"{m}x{n}", a.dtype, lambda a=a, b=b: swiglu.swiglu(a, b),
                        lambda a=a, b=b: F.silu(a) * b, (F.silu(a.float()) * b.float()).to(a.dtype), 1e-2, 1.6e-2,
                        nbytes=3 * a.numel() * a.element_size()))
        print(_line(rows[-1]), flush=True)
    for m, v in ((4096, 128256), (8192, 32000)):
        logits = torch.randn(m, v, device="cuda", dtype=torch.bfloat16)
        target = torch.randint(0, v, (m,), device="cuda")
        want = F.cross_entropy(logits.float(), target, reduction="none")
        rows.append(row("capstone", "cross-entropy", f"{m}x{v}", logits.dtype,
                        lambda x=logits, t=target: ce.cross_entropy(x, t),
                        lambda x=logits, t=target: F.cross_entropy(x, t, reduction="none"), want, 1e-3, 1e-3,
                        nbytes=logits.numel() * logits.element_size() + 12 * m))
        print(_line(rows[-1]), flush=True)
    return rows


def _line(r: dict) -> str:
    head = f"{r['group']:<9} {r['kernel']:<17} {r['shape']:<16} {r['dtype']:<9}"
    if r["status"] != "ok":
        return f"{head} {r['status']}: {r.get('error') or r.get('mismatches')}"
    rate = (f"{r['tflops']:7.1f} TFLOP/s" if "tflops" in r else f"{r['gbps']:7.0f} GB/s")
    return (f"{head} {r['ms']:8.3f} ms [{r['ms_q20']:.3f}-{r['ms_q80']:.3f}]  torch {r['torch_ms']:8.3f} ms  "
            f"{r['ratio']:5.2f}x  {rate}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the rows here")
    parser.add_argument("--sizes", type=int, nargs="+", default=[4096, 8192])
    parser.add_argument("--no-capstone", action="store_true")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("perf_lesson_13.py needs an NVIDIA GPU (times on the interpreter mean nothing)")
        return 2
    env = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
           "cuda": torch.version.cuda, "python": platform.python_version()}
    print(" ".join(f"{k}={v}" for k, v in env.items()))
    rows = ladder(args.sizes, [torch.float16, torch.bfloat16])
    if not args.no_capstone:
        rows += capstone()
    if args.json:
        args.json.write_text(json.dumps({"env": env, "rows": rows}, indent=2))
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
