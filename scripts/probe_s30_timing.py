"""Thirtieth session's timing probe (not a test): issue 18's lesson-13 kernel and issue 15's short shapes, measured
in interleaved rounds so one noisy do_bench cannot decide a target that sits within 2 % of torch.

    python3 scripts/probe_s30_timing.py [--rounds 7] [--parts l13 small] [--json out.json]

l13:   kernels/matmul_descriptors.py at 4096^3 and 8192^3 fp16/bf16: the shipped +warp-specialize launch, and three
       variants (GROUP_M 16; 128 programs, so every program walks exactly as many tiles at 4096^3; no warp
       specialization), torch.matmul in the same round. Each round visits the kernels in a rotated order.
small: kernels/matmul_fast.py's default at issue 15's short shapes, per call (do_bench of the Python call) and
       GPU only (the call captured in a CUDA graph, replayed under do_bench), with the host time of one call
       (perf_counter, the queue drained every 20 calls); torch likewise. At 3000 x 1000 x 4096 and 4096 x 4096 x 1000
       also a pointer-kernel variant told that the odd row stride and size are multiples of 8 elements
       (tl.multiple_of), so that it can load 16 bytes at a time without TMA descriptors (their host cost).
Every kernel is checked against torch before it is timed. Ratio = torch ms / kernel ms (>= 1: the kernel is faster).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import statistics
import time
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.testing import do_bench

KERNELS = Path(__file__).resolve().parents[1] / "kernels"


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"kernels_{name}", KERNELS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ok(got, want, atol=5e-2, rtol=2e-2) -> bool:
    bad = ~torch.isclose(got.float(), want.float(), atol=atol, rtol=rtol)
    return int(bad.sum()) <= got.numel() // 1000


def graph_ms(fn) -> float | None:
    try:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            fn()
        g.replay()
        torch.cuda.synchronize()
        return float(do_bench(g.replay, quantiles=[0.5, 0.2, 0.8])[0])
    except Exception:  # noqa: BLE001
        return None


def host_us(fn, n=200) -> float:
    times = []
    for i in range(n):
        if i % 20 == 0:
            torch.cuda.synchronize()
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    torch.cuda.synchronize()
    return statistics.median(times) * 1e6


def rounds(fns: dict, n: int, graph=False, host=False) -> dict:
    """fns: name -> callable, one of them 'torch'. Per round: do_bench median of each (rotated order)."""
    names = list(fns)
    per = {k: [] for k in names}
    gpu = {k: [] for k in names}
    hst = {k: [] for k in names}
    for r in range(n):
        order = names[r % len(names):] + names[: r % len(names)]
        for k in order:
            per[k].append(float(do_bench(fns[k], quantiles=[0.5, 0.2, 0.8])[0]))
            if graph and r < 3:
                g = graph_ms(fns[k])
                if g is not None:
                    gpu[k].append(g)
            if host and r < 2:
                hst[k].append(host_us(fns[k]))
    out = {}
    for k in names:
        ratios = [t / m for t, m in zip(per["torch"], per[k])]
        out[k] = {
            "ms": statistics.median(per[k]), "ms_all": per[k],
            "ratio_median": statistics.median(ratios), "ratio_min": min(ratios), "ratio_max": max(ratios),
        }
        if gpu[k] and gpu["torch"]:
            out[k]["gpu_ms"] = statistics.median(gpu[k])
            out[k]["gpu_ratio"] = statistics.median(gpu["torch"]) / out[k]["gpu_ms"]
        if hst[k]:
            out[k]["host_us"] = statistics.median(hst[k])
    return out


def show(title, res):
    for k, v in res.items():
        extra = ""
        if "gpu_ms" in v:
            extra += f"  gpu {v['gpu_ms'] * 1e3:8.1f} us ({v['gpu_ratio']:.3f})"
        if "host_us" in v:
            extra += f"  host {v['host_us']:6.1f} us"
        print(f"{title:<28} {k:<22} {v['ms'] * 1e3:9.1f} us  ratio {v['ratio_median']:.3f} "
              f"[{v['ratio_min']:.3f}-{v['ratio_max']:.3f}]{extra}", flush=True)


def part_l13(n_rounds) -> list:
    desc = load("matmul_descriptors")
    rows = []
    for n in (4096, 8192):
        for dtype in (torch.float16, torch.bfloat16):
            a = torch.randn(n, n, device="cuda", dtype=dtype)
            b = torch.randn(n, n, device="cuda", dtype=dtype)
            want = a @ b
            fns = {
                "torch": lambda a=a, b=b: torch.matmul(a, b),
                "shipped ws g8": lambda a=a, b=b: desc.matmul(a, b, warp_specialize=True),
                "ws g16": lambda a=a, b=b: desc.matmul(a, b, warp_specialize=True, GROUP_M=16),
                "ws 128 programs": lambda a=a, b=b: desc.matmul(a, b, warp_specialize=True, num_programs=128),
                "no ws g8": lambda a=a, b=b: desc.matmul(a, b),
            }
            for k, f in list(fns.items()):
                if k != "torch" and not ok(f(), want):
                    print(f"{n} {dtype} {k}: WRONG", flush=True)
                    del fns[k]
            res = rounds(fns, n_rounds)
            title = f"l13 {n}^3 {str(dtype)[6:]}"
            show(title, res)
            rows.append({"part": "l13", "shape": f"{n}^3", "dtype": str(dtype)[6:], "res": res})
            del a, b, want
            torch.cuda.empty_cache()
    return rows


@triton.jit
def matmul_hint8_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                        stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                        GROUP_M: tl.constexpr):
    """matmul_fast_kernel (no epilogue) told that sizes and row strides are multiples of 8 elements."""
    N = tl.multiple_of(N, 8)
    K = tl.multiple_of(K, 8)
    stride_am = tl.multiple_of(stride_am, 8)
    stride_bk = tl.multiple_of(stride_bk, 8)
    stride_cm = tl.multiple_of(stride_cm, 8)
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = a_ptr + offs_m[:, None] * stride_am + offs_k[None, :]
    b_ptrs = b_ptr + offs_k[:, None] * stride_bk + offs_n[None, :]
    m_ok = offs_m[:, None] < M
    n_ok = offs_n[None, :] < N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_K)):
        k_remaining = K - k * BLOCK_K
        a = tl.load(a_ptrs, mask=m_ok & (offs_k[None, :] < k_remaining), other=0.0)
        b = tl.load(b_ptrs, mask=(offs_k[:, None] < k_remaining) & n_ok, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BLOCK_K
        b_ptrs += BLOCK_K * stride_bk
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=m_ok & n_ok)


def hint8(a, b, bm, bn, bk, w, s, g=8):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
    matmul_hint8_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                              c.stride(1), BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g, num_warps=w, num_stages=s)
    return c


def part_small(n_rounds) -> list:
    fast = load("matmul_fast")
    rows = []
    shapes = [(1024, 1024, 1024, torch.float16, False), (1024, 1024, 1024, torch.bfloat16, False),
              (16, 4096, 4096, torch.float16, False), (4096, 4096, 1000, torch.float16, False),
              (3000, 1000, 4096, torch.float16, False), (1024, 1024, 1024, torch.float16, True)]
    for M, N, K, dtype, fused in shapes:
        a = torch.randn(M, K, device="cuda", dtype=dtype)
        if fused:
            w = torch.randn(N, K, device="cuda", dtype=dtype)
            b, bias = w.t(), torch.randn(N, device="cuda", dtype=dtype)
            want = torch.addmm(bias, a, b)
            fns = {"torch": lambda a=a, b=b, bias=bias: torch.addmm(bias, a, b),
                   "shipped": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias)}
        else:
            b = torch.randn(K, N, device="cuda", dtype=dtype)
            want = a @ b
            fns = {"torch": lambda a=a, b=b: torch.matmul(a, b), "shipped": lambda a=a, b=b: fast.matmul(a, b)}
            if N % 16 or K % 16:
                for cfg in ((128, 256, 64, 8, 4), (128, 256, 64, 8, 3), (128, 128, 64, 8, 4), (128, 128, 64, 4, 4)):
                    fns["hint8 %dx%dx%d w%d s%d" % cfg] = lambda a=a, b=b, cfg=cfg: hint8(a, b, *cfg)
        for k, f in list(fns.items()):
            try:
                good = k == "torch" or ok(f(), want)
            except Exception as exc:  # noqa: BLE001
                print(f"{M}x{N}x{K} {k}: {type(exc).__name__}: {str(exc)[:160]}", flush=True)
                good = False
            if not good:
                print(f"{M}x{N}x{K} {k}: dropped", flush=True)
                del fns[k]
        res = rounds(fns, n_rounds, graph=True, host=True)
        title = f"{M}x{N}x{K} {str(dtype)[6:]}" + (" +bias" if fused else "")
        show(title, res)
        rows.append({"part": "small", "shape": f"{M}x{N}x{K}", "dtype": str(dtype)[6:], "fused": fused, "res": res})
    return rows


def part_cand(n_rounds) -> list:
    """The H100 sweep's best points at 1024^3 against the shipped default, in interleaved rounds."""
    fast = load("matmul_fast")
    rows = []
    cands = {
        "ptr 64x128x64 s5": ("pointer", (64, 128, 64, 4, 5)),
        "tma 64x128x128 s3": ("tma", (64, 128, 128, 4, 3)),
        "tma 64x128x64 s5": ("tma", (64, 128, 64, 4, 5)),
    }
    for dtype, fused in ((torch.float16, True), (torch.bfloat16, True), (torch.float16, False), (torch.bfloat16, False)):
        n = 1024
        a = torch.randn(n, n, device="cuda", dtype=dtype)
        w = torch.randn(n, n, device="cuda", dtype=dtype)
        b = w.t() if fused else w
        bias = torch.randn(n, device="cuda", dtype=dtype) if fused else None
        want = torch.addmm(bias, a, b) if fused else a @ b
        fns = {"torch": (lambda a=a, b=b, bias=bias: torch.addmm(bias, a, b)) if fused else (lambda a=a, b=b: a @ b),
               "shipped": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias)}
        for name, (path, c) in cands.items():
            config = dict(BLOCK_M=c[0], BLOCK_N=c[1], BLOCK_K=c[2], GROUP_M=8, num_warps=c[3], num_stages=c[4])
            fns[name] = lambda a=a, b=b, bias=bias, config=config, path=path: fast.matmul(
                a, b, bias, config=config, path=path)
        for k, f in list(fns.items()):
            if k != "torch" and not ok(f(), want):
                print(f"cand {k}: WRONG", flush=True)
                del fns[k]
        res = rounds(fns, n_rounds, graph=True, host=True)
        title = f"1024^3 {str(dtype)[6:]}" + (" +bias (w.t())" if fused else "")
        show(title, res)
        rows.append({"part": "cand", "shape": "1024^3", "dtype": str(dtype)[6:], "fused": fused, "res": res})
    return rows


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--parts", nargs="+", default=["l13", "small"])
    p.add_argument("--json", type=Path)
    args = p.parse_args()
    env = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
           "python": platform.python_version()}
    print(env, flush=True)
    rows = []
    if "small" in args.parts:
        rows += part_small(args.rounds)
    if "cand" in args.parts:
        rows += part_cand(args.rounds)
    if "l13" in args.parts:
        rows += part_l13(args.rounds)
    if args.json:
        args.json.write_text(json.dumps({"env": env, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
