"""Probe (not a test): stream-K, second try, for shapes whose 128 x 256 tiles leave SMs idle (issue 15).

3000 x 1000 x 4096 has 96 tiles of 128 x 256 for 132 SMs: 36 SMs idle, 0.76-0.79x cuBLAS in GPU time. The
fourteenth session's stream-K (docs/gpu-runs/2026-12-04-streamk-14/) was correct but 4-20x slower. This one keeps
the k-loop of the shipped persistent TMA kernel as it is and restricts itself to tiles <= programs, so that a run
(each program's equal share of the (tile, k-step) iterations, < one tile's k-steps) touches at most two tiles:
  - the head of the tile it does not finish: computed FIRST, its fp32 partial stored to a workspace and a flag
    raised, so it is ready long before the program that finishes that tile asks for it;
  - the tail of the tile it does finish: computed, the earlier programs' partials added, epilogue, store.
Flags are reset by the program that consumed them, so every launch leaves them at 0 (safe in a CUDA graph
replay, where an epoch argument would be frozen). The partial is added in column halves (SPLIT = 2) to keep
a 128 x 256 fp32 accumulator and a partial tile from both living in registers.

Run: python3 scripts/probe_streamk2.py --json out.json [--only odd|shapes]
     TRITON_INTERPRET=1 python3 scripts/probe_streamk2.py --smoke
     python3 scripts/probe_streamk2.py --compile  (CPU: compile for sm_90 and print registers/spills)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl
from triton.tools.tensor_descriptor import TensorDescriptor

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from probe_launch_host import _load  # noqa: E402


@triton.jit
def _tile_offsets(tile, num_pid_m, num_pid_n, GROUP_M: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = tile // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    pid_m = first_pid_m + ((tile % num_pid_in_group) % group_size_m)
    pid_n = (tile % num_pid_in_group) // group_size_m
    return pid_m * BLOCK_M, pid_n * BLOCK_N


@triton.jit
def _k_steps(a_desc, b_desc, off_m, off_n, k_lo, k_hi, B_TRANSPOSED: tl.constexpr, BLOCK_M: tl.constexpr,
             BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr):
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for ki in range(k_lo, k_hi):
        a = a_desc.load([off_m, ki * BLOCK_K])
        if B_TRANSPOSED:
            b = b_desc.load([off_n, ki * BLOCK_K]).T
        else:
            b = b_desc.load([ki * BLOCK_K, off_n])
        acc = tl.dot(a, b, acc)
    return acc


@triton.jit
def _fence_proxy_async_global(FENCE: tl.constexpr):
    """Order this thread's global accesses through the generic proxy (the flag) against those of the async proxy
    (TMA) in both directions: the partial is written and read by TMA, the flag by ordinary atomics."""
    if FENCE:
        tl.inline_asm_elementwise("fence.proxy.async.global; mov.u32 $0, 0;", "=r", [], dtype=tl.int32,
                                  is_pure=False, pack=1)


@triton.jit
def streamk_kernel(
    a_desc, b_desc, c_desc, bias_ptr,
    ws_desc,  # TMA descriptor of the fp32 workspace [NUM_PROGRAMS * BLOCK_M, BLOCK_N], block [BLOCK_M, BLOCK_N // SPLIT]
    flag_ptr,  # int32 [NUM_PROGRAMS]: 1 while a partial waits to be added, else 0
    M, N, K,
    HAS_BIAS: tl.constexpr, ACTIVATION: tl.constexpr, B_TRANSPOSED: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    NUM_PROGRAMS: tl.constexpr, SPLIT: tl.constexpr, FENCE: tl.constexpr,
    DIAG: tl.constexpr = 0,  # timing only: 1 = no partials added, 2 = no partials stored or added
):
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    k_tiles = tl.cdiv(K, BLOCK_K)
    total = num_pid_m * num_pid_n * k_tiles
    start = pid * total // NUM_PROGRAMS
    end = (pid + 1) * total // NUM_PROGRAMS
    rn = tl.arange(0, BLOCK_N)
    # 1. the head of the tile this run does not finish (the tile of step `end`), first
    h_tile = end // k_tiles
    h_start = h_tile * k_tiles
    h_lo = tl.maximum(start, h_start)
    if h_lo < end:
        off_m, off_n = _tile_offsets(h_tile, num_pid_m, num_pid_n, GROUP_M, BLOCK_M, BLOCK_N)
        acc = _k_steps(a_desc, b_desc, off_m, off_n, h_lo - h_start, end - h_start, B_TRANSPOSED, BLOCK_M, BLOCK_N,
                       BLOCK_K)
        if DIAG == 2:
            c_desc.store([off_m, off_n], acc.to(c_desc.dtype))
        if DIAG == 2:
            pass
        elif SPLIT == 2:
            acc0, acc1 = tl.split(tl.permute(tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1)))
            ws_desc.store([pid * BLOCK_M, 0], acc0)
            ws_desc.store([pid * BLOCK_M, BLOCK_N // 2], acc1)
        else:
            ws_desc.store([pid * BLOCK_M, 0], acc)
        if DIAG != 2:
            tl.debug_barrier()  # the tile is written (the TMA store has completed) before the flag goes up
            _fence_proxy_async_global(FENCE)
            tl.atomic_xchg(flag_ptr + pid, 1, sem="release")
    # 2. the tail of the tile this run finishes (tiles <= programs: at most one)
    if start < h_start:
        tile = start // k_tiles
        t_start = tile * k_tiles
        off_m, off_n = _tile_offsets(tile, num_pid_m, num_pid_n, GROUP_M, BLOCK_M, BLOCK_N)
        acc = _k_steps(a_desc, b_desc, off_m, off_n, start - t_start, k_tiles, B_TRANSPOSED, BLOCK_M, BLOCK_N,
                       BLOCK_K)
        q = pid - 1
        more = (start > t_start) & (DIAG == 0)  # the run began inside the tile: program pid - 1 holds its head
        while more:
            while tl.atomic_add(flag_ptr + q, 0, sem="acquire") == 0:
                pass
            _fence_proxy_async_global(FENCE)
            if SPLIT == 2:
                acc0, acc1 = tl.split(tl.permute(tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)), (0, 2, 1)))
                acc0 += ws_desc.load([q * BLOCK_M, 0])
                acc1 += ws_desc.load([q * BLOCK_M, BLOCK_N // 2])
                acc = tl.reshape(tl.permute(tl.join(acc0, acc1), (0, 2, 1)), (BLOCK_M, BLOCK_N))
            else:
                acc += ws_desc.load([q * BLOCK_M, 0])
            tl.debug_barrier()  # all threads have read the partial before its flag is cleared
            tl.atomic_xchg(flag_ptr + q, 0, sem="relaxed")
            more = q * total // NUM_PROGRAMS > t_start  # program q also began inside the tile
            q -= 1
        if HAS_BIAS:
            offs_n = off_n + rn
            acc += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
        if ACTIVATION == "relu":
            acc = tl.maximum(acc, 0.0)
        elif ACTIVATION == "silu":
            acc = acc * tl.sigmoid(acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


_STATE: dict = {}  # (device, BLOCK_M * BLOCK_N) -> (workspace, flags)
_SMS: dict = {}


def streamk(a, b, bias=None, activation=None, BM=128, BN=256, BK=64, GROUP_M=8, num_warps=8, num_stages=3,
            split_add=True, programs=None, diag=0):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    transposed = b.stride(0) == 1 and b.stride(1) != 1
    a_desc = TensorDescriptor.from_tensor(a, [BM, BK])
    b_desc = TensorDescriptor.from_tensor(b.t(), [BN, BK]) if transposed else TensorDescriptor.from_tensor(b, [BK, BN])
    c_desc = TensorDescriptor.from_tensor(c, [BM, BN])
    tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
    if programs is None:
        if a.device.type == "cuda":
            if a.device not in _SMS:
                _SMS[a.device] = torch.cuda.get_device_properties(a.device).multi_processor_count
            programs = _SMS[a.device]
        else:
            programs = 7
    programs = min(programs, tiles * triton.cdiv(K, BK))
    if tiles > programs:
        raise ValueError(f"{tiles} tiles for {programs} programs: this kernel needs tiles <= programs")
    key = (a.device, BM * BN)
    state = _STATE.get(key)
    if state is None or state[1].numel() < programs:
        state = _STATE[key] = (torch.empty(programs * BM * BN, device=a.device, dtype=torch.float32),
                               torch.zeros(programs, device=a.device, dtype=torch.int32))
    split = 2 if split_add else 1
    ws_desc = TensorDescriptor(state[0], [programs * BM, BN], [BN, 1], [BM, BN // split])
    streamk_kernel[(programs,)](
        a_desc, b_desc, c_desc, bias if bias is not None else c, ws_desc, state[1], M, N, K,
        HAS_BIAS=bias is not None, ACTIVATION=activation or "", B_TRANSPOSED=transposed,
        BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=GROUP_M, NUM_PROGRAMS=programs, SPLIT=split, FENCE=a.device.type == "cuda", DIAG=diag,
        **({"num_warps": num_warps, "num_stages": num_stages} if a.device.type == "cuda" else {}),
    )
    return c


def smoke() -> int:
    """Correctness on the interpreter: small tiles, several programs per tile, bias, activation, B transposed."""
    gen = torch.Generator().manual_seed(0)
    bad = 0
    for M, N, K, transposed, bias, act, programs, split in [
        (96, 80, 256, False, False, None, 11, True), (96, 80, 256, True, True, "silu", 10, False),
        (96, 80, 256, False, False, None, 9, True), (40, 40, 200, False, True, "relu", 6, True),
        (64, 64, 64, False, False, None, 8, True), (64, 64, 512, True, False, None, 12, True),
        (65, 48, 96, False, True, None, 7, True),
    ]:
        a = torch.randn(M, K, generator=gen).half()
        b = torch.randn(N, K, generator=gen).half().t() if transposed else torch.randn(K, N, generator=gen).half()
        bv = torch.randn(N, generator=gen).half() if bias else None
        want = a.float() @ b.float() + (bv.float() if bias else 0)
        if act == "relu":
            want = torch.relu(want)
        elif act == "silu":
            want = torch.nn.functional.silu(want)
        for rep in range(2):
            got = streamk(a, b, bv, act, BM=32, BN=32, BK=32, GROUP_M=2, programs=programs, split_add=split)
            err = (got.float() - want).abs().max().item()
            ok = torch.allclose(got.float(), want, atol=3e-2, rtol=1e-2)
            flags = _STATE[(a.device, 32 * 32)][1]
            print(f"{M}x{N}x{K} T={transposed} bias={bias} act={act} P={programs} split={split} rep={rep}: "
                  f"max err {err:.3g} {'ok' if ok else 'WRONG'} flags left {int(flags.sum())}", flush=True)
            bad += (not ok) + int(flags.sum() != 0)
    return 1 if bad else 0


def compile_check() -> int:
    """Compile for sm_90 on this machine (no GPU needed) and print registers and spills per config."""
    import subprocess
    import tempfile

    from triton.backends.compiler import GPUTarget

    tools = Path(triton.__file__).parent / "backends" / "nvidia" / "bin"

    target = GPUTarget("cuda", 90, 32)
    for bm, bn, bk, w, st, split in [(128, 256, 64, 8, 3, True), (128, 256, 64, 8, 3, False),
                                     (128, 128, 64, 8, 4, False), (128, 128, 64, 4, 4, False)]:
        sig = {"a_desc": f"tensordesc<fp16[{bm}, {bk}]>", "b_desc": f"tensordesc<fp16[{bk}, {bn}]>",
               "c_desc": f"tensordesc<fp16[{bm}, {bn}]>", "bias_ptr": "*fp16",
               "ws_desc": f"tensordesc<fp32[{bm}, {bn // (2 if split else 1)}]>", "flag_ptr": "*i32",
               "M": "i32", "N": "i32", "K": "i32"}
        consts = dict(HAS_BIAS=False, ACTIVATION="", B_TRANSPOSED=False, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk,
                      GROUP_M=8, NUM_PROGRAMS=132, SPLIT=2 if split else 1, FENCE=True)
        src = triton.compiler.ASTSource(fn=streamk_kernel, signature={**sig, **{k: "constexpr" for k in consts}},
                                        constexprs=consts)
        try:
            k = triton.compile(src, target=target, options={"num_warps": w, "num_stages": st})
            with tempfile.TemporaryDirectory() as tmp:
                cubin = Path(tmp) / "k.cubin"
                cubin.write_bytes(k.asm["cubin"])
                out = subprocess.run([tools / "cuobjdump", "--dump-resource-usage", str(cubin)], capture_output=True,
                                     text=True)
            info = " ".join(line.strip() for line in out.stdout.splitlines() if "REG" in line)
            ttgir = k.asm["ttgir"]
            print(f"{bm}x{bn}x{bk} w{w} s{st} split={split}: shared {k.metadata.shared}; {info}; "
                  f"async TMA loads in ttgir: {ttgir.count('async_tma_copy_global_to_local')}, "
                  f"wgmma: {ttgir.count('warp_group_dot ')}, convert_layout: {ttgir.count('convert_layout')}",
                  flush=True)
        except Exception as exc:  # noqa: BLE001
            print(f"{bm}x{bn}x{bk} w{w} s{st} split={split}: {type(exc).__name__}: {str(exc)[:300]}", flush=True)
    return 0


def graph_check(rows):
    """Stream-K in a CUDA graph (flags reset in the kernel, so a replay needs no host step), with bias, SiLU,
    B = weight.t() and bf16: every replay's result against torch."""
    gen = torch.Generator(device="cuda").manual_seed(3)
    for M, N, K, dtype, transposed, with_bias, act in [(3000, 1000, 4096, torch.float16, False, False, None),
                                                       (3000, 1000, 4096, torch.bfloat16, True, True, "silu"),
                                                       (1536, 1536, 1536, torch.float16, False, True, "relu"),
                                                       (777, 1000, 1000, torch.float16, True, False, None)]:
        a = torch.randn(M, K, device="cuda", dtype=dtype, generator=gen)
        b = (torch.randn(N, K, device="cuda", dtype=dtype, generator=gen).t() if transposed
             else torch.randn(K, N, device="cuda", dtype=dtype, generator=gen))
        bias = torch.randn(N, device="cuda", dtype=dtype, generator=gen) if with_bias else None
        want = (a.float() @ b.float()) + (bias.float() if with_bias else 0)
        want = torch.relu(want) if act == "relu" else torch.nn.functional.silu(want) if act == "silu" else want
        tol = dict(atol=3e-2, rtol=1e-2) if dtype == torch.float16 else dict(atol=1e-1, rtol=2e-2)
        for split in (True,):  # the whole 128 x 256 fp32 tile (split=False) needs 272 KB of shared memory on 3.6
            fn = lambda: streamk(a, b, bias, act, split_add=split)  # noqa: E731
            eager = [fn() for _ in range(3)]
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                out = fn()
            replays = []
            for _ in range(5):
                out.zero_()
                g.replay()
                torch.cuda.synchronize()
                replays.append(out.clone())
            bad = [int((~torch.isclose(x.float(), want, **tol)).sum()) for x in eager + replays]
            same = all(torch.equal(x, eager[0]) for x in eager + replays)
            flags = int(sum(int(st[1].sum()) for st in _STATE.values()))
            line = (f"graph check {M}x{N}x{K} {str(dtype)[6:]} T={transposed} bias={with_bias} act={act} "
                    f"split={split}: bad elements per call {bad}, bitwise same {same}, flags left {flags}")
            print(line, flush=True)
            rows.append({"part": "graph-check", "line": line, "ok": not any(bad) and same and flags == 0})


def diag_part(fast, rows):
    """Where stream-K's time goes (results not checked): GPU time of the full kernel, without adding partials
    (DIAG 1), and without storing them either (DIAG 2: only the k-steps and the tile stores), against the shipped
    kernel; one shape per tile size."""
    import statistics

    from triton.testing import do_bench

    gen = torch.Generator(device="cuda").manual_seed(5)
    for M, N, K, bm, bn in [(3000, 1000, 4096, 128, 256), (1536, 1536, 1536, 128, 256), (1024, 1024, 1024, 128, 128)]:
        a = torch.randn(M, K, device="cuda", dtype=torch.float16, generator=gen)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16, generator=gen)
        fns = {"torch": lambda: a @ b, "shipped": lambda: fast.matmul(a, b)}
        for d in (0, 1, 2):
            fns[f"streamk {bm}x{bn} diag{d}"] = lambda d=d: streamk(a, b, BM=bm, BN=bn, num_warps=8,
                                                                    num_stages=3 if bn == 256 else 4, diag=d)
        fns[f"shipped tiles, tma-persistent {bm}x{bn}"] = lambda: fast.matmul(
            a, b, config=dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=3 if bn == 256 else 4),
            path="tma-persistent")
        for name, fn in fns.items():
            fn()
            g = torch.cuda.CUDAGraph()
            with torch.cuda.graph(g):
                fn()
            us = statistics.median(do_bench(g.replay) for _ in range(3)) * 1e3
            print(f"diag {M}x{N}x{K} {name:<40} graph {us:7.1f} us", flush=True)
            rows.append({"part": "diag", "shape": f"{M}x{N}x{K}", "variant": name, "graph_us": us})


def odd_part(fast, compare, rows):
    gen = torch.Generator(device="cuda").manual_seed(7)
    for M, N, K in [(3000, 1000, 4096), (1536, 1536, 1536), (2048, 1024, 4096), (1024, 1024, 1024)]:
        for dtype in (torch.float16, torch.bfloat16):
            a = torch.randn(M, K, device="cuda", dtype=dtype, generator=gen)
            b = torch.randn(K, N, device="cuda", dtype=dtype, generator=gen)
            variants = {"shipped": lambda a=a, b=b: fast.matmul(a, b)}
            for bm, bn, bk, w, st, split in [(128, 256, 64, 8, 3, True), (128, 256, 64, 8, 3, False),
                                             (128, 256, 64, 8, 4, True), (128, 128, 64, 8, 4, False),
                                             (128, 128, 64, 4, 4, False), (128, 256, 32, 8, 5, True)]:
                if triton.cdiv(M, bm) * triton.cdiv(N, bn) > 132:
                    continue
                variants[f"streamk {bm}x{bn}x{bk} w{w} s{st}{' split' if split else ''}"] = (
                    lambda a=a, b=b, bm=bm, bn=bn, bk=bk, w=w, st=st, split=split: streamk(
                        a, b, BM=bm, BN=bn, BK=bk, num_warps=w, num_stages=st, split_add=split))
            tol = (2e-2, 1e-2) if dtype == torch.float16 else (1e-1, 2e-2)
            compare(f"{M}x{N}x{K} {str(dtype)[6:]}", 2 * M * N * K, a @ b, lambda a=a, b=b: a @ b, variants, rows, tol)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--only", choices=["check", "odd", "diag"])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--compile", action="store_true")
    opts = parser.parse_args()
    if opts.smoke:
        assert os.environ.get("TRITON_INTERPRET") == "1", "run the smoke test with TRITON_INTERPRET=1"
        return smoke()
    if opts.compile:
        return compile_check()
    from probe_splitk import compare

    fast = _load("matmul_fast")
    print(torch.cuda.get_device_name(0), torch.__version__, triton.__version__, flush=True)
    rows: list = []
    if opts.only == "diag":
        diag_part(fast, rows)
    if opts.only in (None, "check"):
        graph_check(rows)
    if opts.only in (None, "odd"):
        odd_part(fast, compare, rows)
    if opts.json:
        Path(opts.json).write_text(json.dumps({"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
                                               "triton": triton.__version__, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
