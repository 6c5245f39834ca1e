"""Time the reference kernels in kernels/ against torch on a GPU: same process, randn data, do_bench medians.

Run on a machine with an NVIDIA GPU:
    python scripts/perf_kernels.py --json perf.json              # the reference kernels at the issue's shapes
    python scripts/perf_kernels.py --explore --budget 300        # also sweep tile/launch configs per shape

Each kernel file is imported by path (as the lab does), so what is timed is exactly what a learner reads. The ratio
is torch_ms / kernel_ms: >= 1 means the lab's kernel is faster. Every timed result is first checked against torch
(a fast wrong config must not win). Not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import platform
import sys
import time
from pathlib import Path

import torch
import torch.nn.functional as F
import triton
from triton.testing import do_bench

KERNELS = Path(__file__).resolve().parents[1] / "kernels"
ROWS: list[dict] = []
START = time.monotonic()


def load(name: str):
    spec = importlib.util.spec_from_file_location(f"kernels_{name}", KERNELS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def timed(fn) -> tuple[float, float, float]:
    median, q20, q80 = do_bench(fn, quantiles=[0.5, 0.2, 0.8])
    return median, q20, q80


def close(got, want, atol, rtol) -> bool:
    bad = ~torch.isclose(got.float(), want.float(), atol=atol, rtol=rtol)
    return int(bad.sum()) <= got.numel() // 1000


def record(group, kernel, shape, fn, torch_fn, want=None, tol=(1e-2, 1e-2), flops=None, nbytes=None, extra=None):
    """Time fn and torch_fn (same data, same process) and keep one row; a wrong or failing fn is listed, not timed."""
    row = {"group": group, "kernel": kernel, "shape": shape, **(extra or {})}
    try:
        got = fn()
        torch.cuda.synchronize()
        if want is not None and not close(got, want, *tol):
            row["status"] = "wrong"
            ROWS.append(row)
            return row
        del got
        ms, q20, q80 = timed(fn)
        tms = torch_fn if isinstance(torch_fn, float) else timed(torch_fn)[0] if torch_fn is not None else None
    except Exception as exc:  # noqa: BLE001 - e.g. out of shared memory for this config
        row.update(status="error", error=f"{type(exc).__name__}: {str(exc)[:120]}")
        ROWS.append(row)
        return row
    row.update(status="ok", ms=ms, q20=q20, q80=q80, torch_ms=tms, ratio=(tms / ms) if tms else None)
    if flops:
        row["tflops"] = flops / ms / 1e9
    if nbytes:
        row["gbps"] = nbytes / ms / 1e6
    ROWS.append(row)
    if not group.endswith("-explore"):
        print_row(row, flush=True)
    return row


SECTION = {"start": time.monotonic()}


def out_of_time(budget: float) -> bool:
    """Sweeps stop once this section has run `budget` seconds; the reference rows are always measured."""
    return time.monotonic() - SECTION["start"] > budget


def rnd(*shape, dtype=torch.float16, gen=None):
    return torch.randn(*shape, device="cuda", dtype=dtype, generator=gen)


# ---- matmul ------------------------------------------------------------------------------------------------------

BIG = [(128, 256, 64, 8, 3), (128, 256, 64, 8, 4), (256, 128, 64, 8, 3), (128, 128, 64, 4, 4), (128, 128, 64, 8, 4),
       (128, 128, 32, 4, 4), (128, 64, 64, 4, 4), (64, 128, 64, 4, 4), (64, 64, 64, 4, 4), (128, 128, 64, 4, 3)]
SKINNY = [(16, 64, 128, 4, 4), (16, 32, 256, 4, 3), (16, 64, 256, 4, 3), (16, 128, 128, 4, 4), (32, 64, 128, 4, 4),
          (16, 64, 64, 4, 6), (16, 32, 128, 2, 6), (16, 128, 64, 4, 5)]
SQUARES = [(n, n, n) for n in (512, 1024, 2048, 4096, 8192)]
ODD = [(16, 4096, 4096), (4096, 4096, 1000), (3000, 1000, 4096)]


def cfg(c):
    bm, bn, bk, w, s = c
    return dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=1 if bm <= 32 else 8, num_warps=w, num_stages=s)


def label(c):
    return "{}x{}x{} w{} s{}".format(*c)


def launch_plain(kernel, a, b, c, config):
    M, K = a.shape
    N = b.shape[1]
    grid = (triton.cdiv(M, config["BLOCK_M"]) * triton.cdiv(N, config["BLOCK_N"]),)
    kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                 **config)
    return c


def matmul_section(explore: bool, budget: float) -> None:
    plain, fast, tuned = load("matmul"), load("matmul_fast"), load("autotune_matmul")
    for dtype in (torch.float16, torch.bfloat16):
        shapes = SQUARES + (ODD if dtype == torch.float16 else [])
        for M, N, K in shapes:
            a, b = rnd(M, K, dtype=dtype), rnd(K, N, dtype=dtype)
            tol = (1e-2, 1e-2) if dtype == torch.float16 else (5e-2, 2e-2)
            want = torch.matmul(a, b)
            shape = f"{M}x{N}x{K} {str(dtype)[6:]}"
            base = lambda: torch.matmul(a, b)  # noqa: E731
            flops = 2 * M * N * K
            record("matmul", "matmul.py", shape, lambda: plain.matmul(a, b), base, want, tol, flops=flops)
            record("matmul", "matmul_fast.py", shape, lambda: fast.matmul(a, b), base, want, tol, flops=flops,
                   extra={"config": fast.pick_config(M, N, K, a.device, a.element_size(),
                                                     fast.strides_aligned(a, b))})
            if dtype == torch.float16 and (M, N, K) in [(1024,) * 3, (4096,) * 3, (16, 4096, 4096)]:
                record("autotune", "autotune_matmul.py", shape, lambda: tuned.matmul(a, b), base, want, tol, flops=flops)
            if not explore or out_of_time(budget) or M == 512:
                continue
            base_ms = timed(base)[0]
            space = SKINNY if M <= 64 else BIG
            for c in space:
                if out_of_time(budget):
                    break
                config = cfg(c)
                record("matmul-explore", "fast " + label(c), shape, lambda: fast.matmul(a, b, config=config), base_ms,
                       want, tol, flops=flops)
                if dtype == torch.float16 and (M == N == K or M <= 64):
                    # the lesson-9/10 kernel body (matmul.py and autotune_matmul.py share it) with this config
                    c_out = torch.empty_like(want)
                    record("matmul-explore", "plain " + label(c), shape,
                           lambda: launch_plain(tuned.matmul_kernel.fn, a, b, c_out, config), base_ms, want,
                           tol, flops=flops)
            del a, b, want
            torch.cuda.empty_cache()


TMA_PATHS = ["tma-persistent", "tma-persistent-ws", "tma"]
TMA_BIG = [(128, 256, 64, 8, 3), (128, 256, 64, 8, 4), (128, 128, 64, 8, 4), (128, 128, 64, 4, 3)]
TMA_SMALL = [(64, 128, 64, 4, 4), (128, 64, 64, 4, 4), (128, 128, 64, 4, 4), (64, 64, 64, 4, 4)]
TMA_SKINNY = [(16, 64, 128, 4, 4), (16, 32, 128, 2, 6), (16, 128, 128, 4, 4)]


def tma_section(explore: bool, budget: float) -> None:
    """matmul_fast.py's TMA kernel: persistent or not, warp-specialised or not, per tile config."""
    fast = load("matmul_fast")
    jobs = [(M, N, K, torch.float16, False) for M, N, K in SQUARES[1:] + ODD]
    jobs += [(n, n, n, torch.bfloat16, False) for n in (1024, 4096, 8192)]
    jobs += [(n, n, n, torch.float16, True) for n in (1024, 4096, 8192)]
    for M, N, K, dtype, fused in jobs:
        if out_of_time(budget):
            break
        a = rnd(M, K, dtype=dtype)
        b = rnd(N, K, dtype=dtype).t() if fused else rnd(K, N, dtype=dtype)
        bias = rnd(N, dtype=dtype) if fused else None
        want = torch.addmm(bias, a, b) if fused else torch.matmul(a, b)
        base_ms = timed((lambda: torch.addmm(bias, a, b)) if fused else (lambda: torch.matmul(a, b)))[0]
        unfused_ms = timed(lambda: a @ b + bias)[0] if fused else None
        tol = (1e-2, 1e-2) if dtype == torch.float16 else (5e-2, 2e-2)
        shape = f"{M}x{N}x{K} {str(dtype)[6:]}" + (" +bias, b=w.t()" if fused else "")
        space = TMA_SKINNY if M <= 64 else TMA_SMALL if M * N <= 1024 * 1024 or M * N * K <= 2**32 else TMA_BIG
        for path in TMA_PATHS if M > 64 else ["tma", "tma-persistent"]:
            for c in space:
                if out_of_time(budget):
                    break
                config = cfg(c)
                row = record("tma-explore", f"{path} {label(c)}", shape,
                             lambda: fast.matmul(a, b, bias, config=config, path=path), base_ms, want, tol,
                             flops=2 * M * N * K)
                if unfused_ms and row.get("ms"):
                    row["vs_unfused"] = unfused_ms / row["ms"]
        del a, b, bias, want
        torch.cuda.empty_cache()


def fused_section(explore: bool, budget: float) -> None:
    fused, fast = load("matmul_bias"), load("matmul_fast")
    for n in (1024, 4096, 8192):
        M = N = K = n
        a = rnd(M, K)
        weight = rnd(N, K)
        b = weight.t()  # nn.Linear's layout, as lesson 9 verifies and benches it
        bias = rnd(N)
        want = torch.addmm(bias, a, b)
        shape = f"{n}^3 fp16, b = weight.t()"
        flops = 2 * M * N * K
        for act in (None, "silu"):
            ref = (lambda: torch.addmm(bias, a, b)) if act is None else (lambda: F.silu(torch.addmm(bias, a, b)))
            unfused = (lambda: a @ b + bias) if act is None else (lambda: F.silu(a @ b + bias))
            w = want if act is None else F.silu(want)
            tag = act or "bias"
            record("fused", f"matmul_bias.py {tag} vs addmm", shape, lambda: fused.matmul_bias(a, b, bias, act), ref,
                   w, flops=flops)
            record("fused", f"matmul_bias.py {tag} vs unfused", shape, lambda: fused.matmul_bias(a, b, bias, act),
                   unfused, w, flops=flops)
            record("fused", f"matmul_fast.py {tag} vs addmm", shape, lambda: fast.matmul(a, b, bias, act), ref, w,
                   flops=flops)
            record("fused", f"matmul_fast.py {tag} vs unfused", shape, lambda: fast.matmul(a, b, bias, act), unfused,
                   w, flops=flops)
        if explore and not out_of_time(budget):
            addmm_ms = timed(lambda: torch.addmm(bias, a, b))[0]
            for c in BIG:
                if out_of_time(budget):
                    break
                config = cfg(c)
                record("fused-explore", "fast " + label(c), shape, lambda: fast.matmul(a, b, bias, config=config),
                       addmm_ms, want, flops=flops)
        del a, weight, b, bias, want
        torch.cuda.empty_cache()


# ---- softmax, copies, the rest -------------------------------------------------------------------------------------

WIDTHS = [128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768]


def softmax_section(explore: bool, budget: float) -> None:
    ref, fast = load("softmax"), load("softmax_fast")
    shapes = [(2**25 // n, n) for n in WIDTHS] + [(4096, 256), (4096, 1024), (4096, 4096), (4096, 16384)]
    for M, N in shapes:
        x = rnd(M, N, dtype=torch.float32)
        want = torch.softmax(x, dim=-1)
        base = lambda: torch.softmax(x, dim=-1)  # noqa: E731
        nbytes = 2 * M * N * 4
        shape = f"{M}x{N} fp32 randn"
        record("softmax", "softmax.py", shape, lambda: ref.softmax(x), base, want, (1e-6, 1e-5), nbytes=nbytes)
        record("softmax", "softmax_fast.py", shape, lambda: fast.softmax(x), base, want, (1e-6, 1e-5), nbytes=nbytes,
               extra={"launch": fast.pick_launch(N)})
        if explore and not out_of_time(budget) and M * N == 2**25:
            base_ms = timed(base)[0]
            block = triton.next_power_of_2(N)
            for rows in (1, 2, 4, 8, 16, 32, 64):
                if rows * block > 32768 or (rows > 1 and rows * block < 1024):
                    continue
                for warps in (4, 8, 16, 32):
                    if warps * 32 > rows * block or out_of_time(budget):
                        continue
                    record("softmax-explore", f"rows {rows} w{warps}", shape,
                           lambda: fast.softmax(x, ROWS=rows, num_warps=warps), base_ms, want, (1e-6, 1e-5),
                           nbytes=nbytes)
        del x, want
        torch.cuda.empty_cache()


COPY_TILES = [(64, 64, 4), (64, 64, 8), (32, 128, 4), (128, 32, 4), (16, 256, 4), (128, 128, 8), (64, 128, 4),
              (128, 64, 4), (32, 64, 4), (64, 32, 4), (256, 64, 8), (64, 256, 8)]


def copy_section(explore: bool, budget: float) -> None:
    copy2d, transpose = load("copy_2d"), load("transpose")
    cases = {
        "8192x4096 col stride 2": torch.randn(8192, 8192, device="cuda")[:, ::2],
        "8192x8192 transposed view": torch.randn(8192, 8192, device="cuda").t(),
        "4096x4096 transposed view": torch.randn(4096, 4096, device="cuda").t(),
    }
    for shape, x in cases.items():
        want = x.contiguous()
        nbytes = 2 * x.numel() * 4
        record("copy", "copy_2d.py", shape, lambda: copy2d.copy_2d(x), x.contiguous, want, (0, 0), nbytes=nbytes)
        if explore and not out_of_time(budget):
            base_ms = timed(x.contiguous)[0]
            for bm, bn, w in COPY_TILES:
                record("copy-explore", f"{bm}x{bn} w{w}", shape,
                       lambda: copy2d.copy_2d(x, BLOCK_M=bm, BLOCK_N=bn, num_warps=w), base_ms, want, (0, 0),
                       nbytes=nbytes)
    base = torch.randn(8192, 8200, device="cuda")
    x = base[:, :8192]  # the lab's "sliced" layout: rows of a wider buffer
    record("transpose", "transpose.py", "8192x8192 sliced rows", lambda: transpose.transpose(x),
           lambda: x.t().contiguous(), x.t().contiguous(), (0, 0), nbytes=2 * x.numel() * 4)
    del cases, base, x
    torch.cuda.empty_cache()


def other_section() -> None:
    add, row_sum, rms = load("vector_add"), load("row_sum"), load("rms_norm")
    n = 2**27
    x, y = rnd(n, dtype=torch.float32), rnd(n, dtype=torch.float32)
    record("other", "vector_add.py", "n=2^27 fp32", lambda: add.add(x, y), lambda: x + y, x + y, (0, 0),
           nbytes=3 * n * 4)
    m = rnd(4096, 4096, dtype=torch.float32)
    record("other", "row_sum.py", "4096x4096 fp32", lambda: row_sum.row_sum(m), lambda: m.sum(dim=-1), m.sum(dim=-1),
           (1e-3, 1e-4), nbytes=m.numel() * 4)
    h = rnd(4096, 4096)
    w = torch.rand(4096, device="cuda", dtype=torch.float16)
    want = F.rms_norm(h, (4096,), w, 1e-6)
    record("other", "rms_norm.py", "4096x4096 fp16", lambda: rms.rms_norm(h, w, 1e-6),
           lambda: F.rms_norm(h, (4096,), w, 1e-6), want, (2e-3, 2e-3), nbytes=3 * h.numel() * 2)


def fma_section(explore: bool, budget: float) -> None:
    """Lesson 6's roofline walk: the FMA chain at rising arithmetic intensity (n = 16 Mi, fp32)."""
    fma = load("fma_chain")
    n = 2**24
    x = rnd(n, dtype=torch.float32)
    for degree in (1, 4, 16, 32, 64, 128, 256, 1024):
        want = x * (2 - 0.5**degree)
        record("fma", "fma_chain.py", f"n=2^24 degree={degree}", lambda: fma.fma_chain(x, degree),
               lambda: x * (2 - 0.5**degree), want, (1e-5, 1e-5), flops=2 * degree * n, nbytes=2 * n * 4)


def best_of(group: str) -> list[dict]:
    best: dict = {}
    for row in ROWS:
        if row["group"] == group and row.get("status") == "ok":
            if row["shape"] not in best or row["ms"] < best[row["shape"]]["ms"]:
                best[row["shape"]] = row
    return list(best.values())


def print_table() -> None:
    print(f"\n{'group':<16} {'kernel':<34} {'shape':<32} {'ms':>9} {'torch ms':>9} {'ratio':>6} {'TFLOP/s|GB/s':>13}")
    for row in ROWS:
        if row["group"].endswith("-explore"):
            continue
        print_row(row)
    for group in sorted({r["group"] for r in ROWS if r["group"].endswith("-explore")}):
        print(f"-- best of {group}")
        for row in best_of(group):
            print_row(row)
    paths: dict = {}
    for row in ROWS:
        if row["group"] == "tma-explore" and row.get("status") == "ok":
            key = (row["shape"], row["kernel"].split()[0])
            if key not in paths or row["ms"] < paths[key]["ms"]:
                paths[key] = row
    if paths:
        print("-- tma-explore, best config per shape and path")
        for key in sorted(paths):
            print_row(paths[key])
    errors = [r for r in ROWS if r.get("status") != "ok"]
    print(f"-- {len(errors)} rows wrong or failed" + "".join(
        f"\n   {r['kernel']} {r['shape']}: {r.get('status')} {r.get('error', '')[:150]}" for r in errors[:12]))


def print_row(row: dict, flush: bool = False) -> None:
    if row.get("status") != "ok":
        print(f"{row['group']:<16} {row['kernel']:<34} {row['shape']:<32} {row.get('status')}: {row.get('error', '')}",
              flush=flush)
        return
    rate = row.get("tflops") or row.get("gbps") or 0
    ratio = f"{row['ratio']:.2f}" if row.get("ratio") else "-"
    print(f"{row['group']:<16} {row['kernel'][:34]:<34} {row['shape'][:32]:<32} {row['ms']:9.4f} "
          f"{row['torch_ms'] or math.nan:9.4f} {ratio:>6} {rate:13.1f}"
          + (f"  vs unfused {row['vs_unfused']:.2f}" if row.get("vs_unfused") else ""), flush=flush)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", help="write every row here")
    parser.add_argument("--explore", nargs="*", default=[], help="sections whose configs are also swept")
    parser.add_argument("--budget", type=float, default=400, help="seconds of sweeping in all, shared by sections")
    parser.add_argument("--only", nargs="*", default=["matmul", "fused", "softmax", "copy", "other"],
                        help="sections to run (also: tma, the TMA kernel's sweep)")
    args = parser.parse_args()
    if not torch.cuda.is_available():
        print("perf_kernels.py needs a CUDA GPU (interpreter timings are not GPU timings)")
        return 2
    sections = {"matmul": matmul_section, "fused": fused_section, "softmax": softmax_section, "tma": tma_section, "fma": fma_section,
                "copy": copy_section, "other": lambda explore, budget: other_section()}
    share = {"matmul": 0.5, "fused": 0.15, "softmax": 0.2, "copy": 0.15, "other": 0.0, "tma": 1.0, "fma": 0.0}
    meta = {"gpu": torch.cuda.get_device_name(), "torch": torch.__version__, "triton": triton.__version__,
            "python": platform.python_version(), "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    print(meta, flush=True)
    for name in args.only:
        SECTION["start"] = time.monotonic()
        try:
            sections[name](name in args.explore, args.budget * share[name])
        except Exception as exc:  # noqa: BLE001 - a broken section must not cost the others
            import traceback

            traceback.print_exc()
            ROWS.append({"group": name, "kernel": "section", "shape": "-", "status": "error", "error": repr(exc)})
        print(f"[{name}: {time.monotonic() - SECTION['start']:.0f} s]", flush=True)
        if args.json:
            Path(args.json).write_text(json.dumps({"meta": meta, "rows": ROWS}, indent=1))
    print_table()
    return 0


if __name__ == "__main__":
    sys.exit(main())
