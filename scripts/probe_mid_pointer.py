"""Probe (not a test): mid-size GEMMs (2048^3 class) through matmul_fast's pointer kernel instead of its TMA path.

`pick_config` sends every shape with >= 0.7 of a wave of 128 x 256 tiles to the persistent TMA kernel. Its GPU time
at 2048^3 is torch's (0.99x), but each call encodes three host-side TensorDescriptors: on the H200 box that is
60-105 us of host time per call against torch's 12-20 us, so per-call do_bench measured matmul_fast at 0.35x
torch at 2048^3 while lesson 9's plain `matmul.py` (pointer loads, 128 x 256 x 64, 4 stages) measured 0.99x
(docs/gpu-runs/2026-12-04-17/). Here: GPU time (CUDA-graph replay) and per-call time of both paths, same process.
Run: python3 scripts/probe_mid_pointer.py --json out.json
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import torch
import triton

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from probe_launch_host import _load, host_us  # noqa: E402
from probe_splitk import compare  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    opts = parser.parse_args()
    fast = _load("matmul_fast")
    print(torch.cuda.get_device_name(0), torch.__version__, triton.__version__, flush=True)
    rows: list = []
    gen = torch.Generator(device="cuda").manual_seed(11)
    shapes = [(2048, 2048, 2048, torch.float16, False), (2048, 2048, 2048, torch.bfloat16, False),
              (2048, 2048, 2048, torch.float16, True), (2048, 2048, 4096, torch.float16, False),
              (4096, 2048, 2048, torch.float16, False), (2048, 4096, 2048, torch.float16, False),
              (3072, 3072, 3072, torch.float16, False), (4096, 4096, 2048, torch.float16, False),
              (4096, 4096, 4096, torch.float16, False), (4096, 4096, 4096, torch.float16, True)]
    for M, N, K, dtype, fused in shapes:
        a = torch.randn(M, K, device="cuda", dtype=dtype, generator=gen)
        b = (torch.randn(N, K, device="cuda", dtype=dtype, generator=gen).t() if fused
             else torch.randn(K, N, device="cuda", dtype=dtype, generator=gen))
        bias = torch.randn(N, device="cuda", dtype=dtype, generator=gen) if fused else None
        want = torch.addmm(bias, a, b) if fused else a @ b
        base = (lambda a=a, b=b, bias=bias: torch.addmm(bias, a, b)) if fused else (lambda a=a, b=b: a @ b)
        variants = {"shipped (" + fast.pick_config(M, N, K, a.device)["path"] + ")":
                    lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias)}
        for bm, bn, bk, w, st in [(128, 256, 64, 8, 4), (128, 256, 64, 8, 3), (128, 128, 64, 8, 4),
                                  (128, 256, 32, 8, 5)]:
            cfg = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, num_warps=w, num_stages=st)
            variants[f"pointer {bm}x{bn}x{bk} w{w} s{st}"] = (
                lambda a=a, b=b, bias=bias, cfg=cfg: fast.matmul(a, b, bias, config=cfg, path="pointer"))
        title = f"{M}x{N}x{K} {str(dtype)[6:]}" + (" B.t()+bias/addmm" if fused else "")
        compare(title, 2 * M * N * K, want, base, variants, rows, (2e-2, 1e-2) if dtype == torch.float16
                else (1e-1, 2e-2))
        for name, fn in [("torch", base)] + list(variants.items())[:2]:
            us = [host_us(fn)[0] for _ in range(3)]
            print(f"{title:<34} {name:<28} host {statistics.median(us):7.1f} us per call", flush=True)
            rows.append({"part": "host", "shape": title, "call": name, "host_us": us})
    if opts.json:
        Path(opts.json).write_text(json.dumps({"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
                                               "triton": triton.__version__, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
