"""Probe (not a test): host time per call of the lab's matmul launches on this machine, and where it goes.

For each call: the median host time of 200 calls timed one by one with perf_counter (the GPU queue never fills:
a synchronize every 20 calls, not timed), then cProfile of 300 calls (top functions by own time).
Run: python3 scripts/probe_launch_host.py
"""

from __future__ import annotations

import cProfile
import importlib.util
import io
import os
import platform
import pstats
import statistics
import sys
import time
from pathlib import Path

import torch
import triton

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "kernels" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def host_us(fn, n=200):
    fn()
    torch.cuda.synchronize()
    times = []
    for i in range(n):
        if i % 20 == 0:
            torch.cuda.synchronize()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    torch.cuda.synchronize()
    return statistics.median(times) * 1e6, min(times) * 1e6


def main() -> int:
    print(torch.cuda.get_device_name(0), torch.__version__, triton.__version__, platform.python_version(),
          platform.processor() or platform.machine(), "cpus", os.cpu_count(), "load", os.getloadavg(), flush=True)
    try:
        print(open("/proc/cpuinfo").read().split("model name")[1].split("\n")[0], flush=True)
    except Exception:  # noqa: BLE001
        pass
    fast = _load("matmul_fast")
    a = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    b = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    a3 = torch.randn(3000, 4096, device="cuda", dtype=torch.float16)
    b3 = torch.randn(4096, 1000, device="cuda", dtype=torch.float16)
    c = torch.empty(1024, 1024, device="cuda", dtype=torch.float16)
    cfg = fast.pick_config(1024, 1024, 1024, a.device)
    grid = (triton.cdiv(1024, cfg["BLOCK_M"]) * triton.cdiv(1024, cfg["BLOCK_N"]),)
    launch_cfg = {k: v for k, v in cfg.items() if k != "path"}

    def raw():
        fast.matmul_fast_kernel[grid](a, b, c, c, 1024, 1024, 1024, 1024, 1, 1024, 1, 1024, 1, HAS_BIAS=False,
                                      ACTIVATION="", EVEN_K=True, **launch_cfg)

    calls = {
        "torch a @ b 1024^3": lambda: a @ b,
        "torch.empty 1024^2": lambda: torch.empty(1024, 1024, device="cuda", dtype=torch.float16),
        "get_device_properties": lambda: torch.cuda.get_device_properties(a.device),
        "kernel[grid](...) pointer 1024^3": raw,
        "matmul_fast.matmul 1024^3": lambda: fast.matmul(a, b),
        "matmul_fast.matmul 3000x1000x4096 (TMA)": lambda: fast.matmul(a3, b3),
        "torch a @ b 3000x1000x4096": lambda: a3 @ b3,
    }
    from triton.testing import do_bench

    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    TD = fast.TensorDescriptor

    def lean_tma(a, b):  # the TMA path with nothing but the launch: what the wrapper's checks cost
        M, K = a.shape
        N = b.shape[1]
        c = torch.empty((M, N), device=a.device, dtype=a.dtype)
        ad, bd, cd = TD.from_tensor(a, [128, 64]), TD.from_tensor(b, [64, 256]), TD.from_tensor(c, [128, 256])
        progs = min(triton.cdiv(M, 128) * triton.cdiv(N, 256), sms)
        fast.matmul_tma_kernel[(progs,)](ad, bd, cd, c, M, N, K, HAS_BIAS=False, ACTIVATION="", B_TRANSPOSED=False,
                                         BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, NUM_PROGRAMS=progs,
                                         WARP_SPECIALIZE=False, num_warps=8, num_stages=3)
        return c

    calls["lean TMA launch 3000x1000x4096"] = lambda: lean_tma(a3, b3)
    for name, fn in calls.items():
        med, low = host_us(fn)
        fn()
        torch.cuda.synchronize()
        g = torch.cuda.CUDAGraph()
        graph_us = float("nan")
        try:
            with torch.cuda.graph(g):
                fn()
            graph_us = do_bench(g.replay) * 1e3
        except Exception as exc:  # noqa: BLE001
            print("graph failed", name, type(exc).__name__, str(exc)[:80])
        benches = [do_bench(fn) * 1e3 for _ in range(3)]
        print(f"{name:<42} host median {med:7.1f} us   min {low:7.1f} us   do_bench x3 "
              + " ".join(f"{x:6.1f}" for x in benches) + f"   graph replay {graph_us:6.1f} us", flush=True)
    for name in ("kernel[grid](...) pointer 1024^3", "matmul_fast.matmul 3000x1000x4096 (TMA)"):
        fn = calls[name]
        prof = cProfile.Profile()
        prof.enable()
        for i in range(300):
            fn()
            if i % 20 == 0:
                torch.cuda.synchronize()
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(14)
        print(f"--- cProfile, 300 calls of {name}, by own time")
        print("\n".join(line for line in out.getvalue().splitlines()[6:40] if line.strip()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
