"""Probe (not a test): two ways past issue 15/18's last matmul gaps on an H200.

1. Split-K in pairs, in one launch: each output tile is computed by two programs, each over half of K. The first
   leaves its fp32 partial tile in a workspace and raises the tile's flag; the second adds it and runs the
   epilogue. Persistent over units with an even program count, so a pair is always handled in the same round by
   programs p and p + 1 (the waiter never waits for a program that is not running). Aimed at 1024^3 (64 tiles of
   128 x 128 -> 128 units, fewer L2 bytes per flop than 128 tiles of 64 x 128) and 3000 x 1000 x 4096 (192 tiles ->
   384 units, 2.9 waves instead of 96 tiles on 132 SMs).
2. Lesson 13's descriptor kernel with the epilogue stored in two halves (less shared memory: a 4th stage fits).

Every variant is checked against torch before it is timed; torch and the variants are timed in turn, ROUNDS
rounds (do_bench medians), and each one's median over the rounds is reported.
Run: python3 scripts/probe_splitk.py --json out.json [--only splitk|l13]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.testing import do_bench
from triton.tools.tensor_descriptor import TensorDescriptor

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = 3


def _load(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "kernels" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@triton.jit(do_not_specialize=["epoch"])
def splitk_kernel(a_desc, b_desc, c_desc, bias_ptr, ws_ptr, flag_ptr, M, N, K, epoch,
                  HAS_BIAS: tl.constexpr, ACTIVATION: tl.constexpr, B_TRANSPOSED: tl.constexpr,
                  BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                  NUM_PROGRAMS: tl.constexpr):
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    half = k_tiles // 2
    num_pid_in_group = GROUP_M * num_pid_n
    rm = tl.arange(0, BLOCK_M)
    rn = tl.arange(0, BLOCK_N)
    for unit in tl.range(tl.program_id(0), 2 * num_tiles, NUM_PROGRAMS):
        tile = unit // 2
        second = unit % 2
        group_id = tile // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        off_m = (first_pid_m + ((tile % num_pid_in_group) % group_size_m)) * BLOCK_M
        off_n = ((tile % num_pid_in_group) // group_size_m) * BLOCK_N
        k_lo = second * half
        k_hi = half + second * (k_tiles - half)
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_lo, k_hi):
            a = a_desc.load([off_m, ki * BLOCK_K])
            if B_TRANSPOSED:
                b = b_desc.load([off_n, ki * BLOCK_K]).T
            else:
                b = b_desc.load([ki * BLOCK_K, off_n])
            acc = tl.dot(a, b, acc)
        part = ws_ptr + tile.to(tl.int64) * (BLOCK_M * BLOCK_N) + rm[:, None] * BLOCK_N + rn[None, :]
        if second == 0:
            tl.store(part, acc, cache_modifier=".cg")
            tl.debug_barrier()
            tl.atomic_xchg(flag_ptr + tile, epoch, sem="release")
        else:
            flag = tl.atomic_add(flag_ptr + tile, 0, sem="acquire")
            while flag != epoch:
                flag = tl.atomic_add(flag_ptr + tile, 0, sem="acquire")
            tl.debug_barrier()
            acc += tl.load(part, cache_modifier=".cg")
            tl.atomic_xchg(flag_ptr + tile, 0, sem="relaxed")  # lowered again: the next call (or graph replay) waits anew
            if HAS_BIAS:
                offs_n = off_n + rn
                acc += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
            if ACTIVATION == "relu":
                acc = tl.maximum(acc, 0.0)
            c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


_STATE: dict = {}


def splitk(a, b, bias=None, BM=128, BN=128, BK=64, GROUP_M=8, num_warps=8, num_stages=3):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    transposed = b.stride(0) == 1 and b.stride(1) != 1
    a_desc = TensorDescriptor.from_tensor(a, [BM, BK])
    b_desc = TensorDescriptor.from_tensor(b.t(), [BN, BK]) if transposed else TensorDescriptor.from_tensor(b, [BK, BN])
    c_desc = TensorDescriptor.from_tensor(c, [BM, BN])
    tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    programs = min(2 * tiles, sms - sms % 2)
    key = (a.device, tiles * BM * BN)
    state = _STATE.get(key)
    if state is None:
        state = _STATE[key] = [torch.empty(tiles * BM * BN, device=a.device, dtype=torch.float32),
                               torch.zeros(tiles, device=a.device, dtype=torch.int32), 0]
    state[2] = 1  # the waiter lowers the flag after use: a constant epoch, safe to capture in a CUDA graph
    splitk_kernel[(programs,)](a_desc, b_desc, c_desc, bias if bias is not None else c, state[0], state[1],
                               M, N, K, state[2], HAS_BIAS=bias is not None, ACTIVATION="",
                               B_TRANSPOSED=transposed, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=GROUP_M,
                               NUM_PROGRAMS=programs, num_warps=num_warps, num_stages=num_stages)
    return c


@triton.jit
def desc_kernel(a_ptr, b_ptr, c_ptr, M, N, K, NUM_PROGRAMS: tl.constexpr, BLOCK_M: tl.constexpr,
                BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
                WARP_SPECIALIZE: tl.constexpr, SUBTILE: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1],
                                       block_shape=[BLOCK_M, BLOCK_N // 2 if SUBTILE else BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    num_pid_in_group = GROUP_M * num_pid_n
    for tile_id in tl.range(tl.program_id(0), num_tiles, NUM_PROGRAMS, flatten=True,
                            warp_specialize=WARP_SPECIALIZE):
        group_id = tile_id // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        off_m = (first_pid_m + ((tile_id % num_pid_in_group) % group_size_m)) * BLOCK_M
        off_n = ((tile_id % num_pid_in_group) // group_size_m) * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(tl.cdiv(K, BLOCK_K)):
            a = a_desc.load([off_m, ki * BLOCK_K])
            b = b_desc.load([ki * BLOCK_K, off_n])
            acc = tl.dot(a, b, acc)
        if SUBTILE:
            acc = tl.permute(tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1))
            acc0, acc1 = tl.split(acc)
            c_desc.store([off_m, off_n], acc0.to(c_desc.dtype))
            c_desc.store([off_m, off_n + BLOCK_N // 2], acc1.to(c_desc.dtype))
        else:
            c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


def _scratch(size, alignment, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


def desc(a, b, ws=True, subtile=False, stages=3, group=8, warps=8):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    triton.set_allocator(_scratch)
    tiles = triton.cdiv(M, 128) * triton.cdiv(N, 256)
    programs = min(tiles, torch.cuda.get_device_properties(a.device).multi_processor_count)
    desc_kernel[(programs,)](a, b, c, M, N, K, NUM_PROGRAMS=programs, BLOCK_M=128, BLOCK_N=256, BLOCK_K=64,
                             GROUP_M=group, WARP_SPECIALIZE=ws, SUBTILE=subtile, num_warps=warps,
                             num_stages=stages)
    return c


def compare(title, flops, want, base, variants, rows, tol):
    ok = {}
    for name, fn in variants.items():
        try:
            got = fn()
            torch.cuda.synchronize()
            bad = int((~torch.isclose(got.float(), want.float(), atol=tol[0], rtol=tol[1])).sum())
            again = fn()
            same = torch.equal(got, again)
            if bad:
                print(f"{title:<34} {name:<28} WRONG: {bad} elements off", flush=True)
                rows.append({"shape": title, "variant": name, "status": "wrong", "bad": bad})
                continue
            ok[name] = (fn, same)
        except Exception as exc:  # noqa: BLE001 - e.g. out of shared memory
            print(f"{title:<34} {name:<28} ERROR {type(exc).__name__}: {str(exc)[:100]}", flush=True)
            rows.append({"shape": title, "variant": name, "status": "error", "error": str(exc)[:300]})
    graphs = {}
    for name, fn in [("torch", base)] + [(n, f) for n, (f, _) in ok.items()]:
        g = torch.cuda.CUDAGraph()
        with torch.cuda.graph(g):
            fn()
        graphs[name] = g
    medians: dict = {"torch": []}
    medians.update({name: [] for name in ok})
    gmed: dict = {name: [] for name in medians}
    for _ in range(ROUNDS):
        medians["torch"].append(do_bench(base))
        gmed["torch"].append(do_bench(graphs["torch"].replay))
        for name, (fn, _) in ok.items():
            medians[name].append(do_bench(fn))
            gmed[name].append(do_bench(graphs[name].replay))
    tg = statistics.median(gmed["torch"])
    for name in medians:
        g = statistics.median(gmed[name])
        print(f"{title:<34} {name:<28} graph {g * 1e3:8.1f} us  {tg / g:5.2f}x torch's graph", flush=True)
        rows.append({"shape": title, "variant": name, "graph_ms": g, "torch_graph_ms": tg, "graph_ratio": tg / g})
    t = statistics.median(medians["torch"])
    print(f"{title:<34} {'torch':<28} {t * 1e3:8.1f} us  {flops / t / 1e9:6.0f} TFLOP/s  rounds "
          + " ".join(f"{m * 1e3:.1f}" for m in medians["torch"]), flush=True)
    for name, (fn, same) in ok.items():
        m = statistics.median(medians[name])
        print(f"{title:<34} {name:<28} {m * 1e3:8.1f} us  {flops / m / 1e9:6.0f} TFLOP/s  {t / m:5.2f}x  "
              f"det={same}  rounds " + " ".join(f"{x * 1e3:.1f}" for x in medians[name]), flush=True)
        rows.append({"shape": title, "variant": name, "status": "ok", "ms": m, "torch_ms": t, "ratio": t / m,
                     "deterministic": same, "rounds_ms": medians[name], "torch_rounds_ms": medians["torch"]})


def splitk_part(rows):
    fast = _load("matmul_fast")
    gen = torch.Generator(device="cuda").manual_seed(0)
    for M, N, K, dtype, fused in [(1024, 1024, 1024, torch.float16, False), (1024, 1024, 1024, torch.bfloat16, False),
                                  (1024, 1024, 1024, torch.float16, True), (2048, 2048, 2048, torch.float16, False),
                                  (3000, 1000, 4096, torch.float16, False), (4096, 4096, 1000, torch.float16, False)]:
        a = torch.randn(M, K, device="cuda", dtype=dtype, generator=gen)
        b = (torch.randn(N, K, device="cuda", dtype=dtype, generator=gen).t() if fused
             else torch.randn(K, N, device="cuda", dtype=dtype, generator=gen))
        bias = torch.randn(N, device="cuda", dtype=dtype, generator=gen) if fused else None
        want = torch.addmm(bias, a, b) if fused else a @ b
        base = (lambda a=a, b=b, bias=bias: torch.addmm(bias, a, b)) if fused else (lambda a=a, b=b: a @ b)
        variants = {"matmul_fast default": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias)}
        for bm, bn, w, s in [(128, 128, 8, 3), (128, 128, 8, 4), (128, 128, 4, 4), (64, 128, 4, 4), (128, 64, 4, 4)]:
            variants[f"splitk2 {bm}x{bn}x64 w{w} s{s}"] = (
                lambda a=a, b=b, bias=bias, bm=bm, bn=bn, w=w, s=s: splitk(a, b, bias, BM=bm, BN=bn, num_warps=w,
                                                                          num_stages=s))
        title = f"{M}x{N}x{K} {str(dtype)[6:]}" + (" +bias/addmm" if fused else "")
        compare(title, 2 * M * N * K, want, base, variants, rows, (1e-2, 1e-2) if dtype == torch.float16 else (5e-2, 2e-2))


def l13_part(rows):
    lesson = _load("matmul_descriptors")
    gen = torch.Generator(device="cuda").manual_seed(1)
    for n in (4096, 8192):
        for dtype in (torch.float16, torch.bfloat16):
            a = torch.randn(n, n, device="cuda", dtype=dtype, generator=gen)
            b = torch.randn(n, n, device="cuda", dtype=dtype, generator=gen)
            want = a @ b
            variants = {
                "lesson13 ws (shipped)": lambda a=a, b=b: lesson.matmul(a, b, warp_specialize=True),
                "ws s3": lambda a=a, b=b: desc(a, b),
                "ws s4 subtile": lambda a=a, b=b: desc(a, b, subtile=True, stages=4),
                "ws s3 subtile": lambda a=a, b=b: desc(a, b, subtile=True, stages=3),
                "no-ws s4 subtile": lambda a=a, b=b: desc(a, b, ws=False, subtile=True, stages=4),
                "ws s4 subtile g16": lambda a=a, b=b: desc(a, b, subtile=True, stages=4, group=16),
            }
            title = f"{n}^3 {str(dtype)[6:]}"
            compare(title, 2 * n**3, want, lambda a=a, b=b: a @ b, variants, rows,
                    (2e-2, 1e-2) if dtype == torch.float16 else (1e-1, 2e-2))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--only", choices=["splitk", "l13"])
    opts = parser.parse_args()
    print(torch.cuda.get_device_name(0), torch.__version__, triton.__version__, flush=True)
    rows: list = []
    if opts.only in (None, "splitk"):
        splitk_part(rows)
    if opts.only == "l13":
        l13_part(rows)
    if opts.json:
        Path(opts.json).write_text(json.dumps({"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
                                               "triton": triton.__version__, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
