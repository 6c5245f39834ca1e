"""Probe (not a test): `matmul_fast`'s TMA path with descriptors built on the device instead of on the host.

The shipped TMA path hands three host-side `TensorDescriptor`s to every launch; Triton's launcher encodes each one
(cuTensorMapEncodeTiled) on every call, and on the H200 box that made the TMA rows host-bound in the runner
(docs/GPU-RESULTS.md, fifteenth session). Here the same kernel builds its descriptors with
`tl.make_tensor_descriptor` from plain pointers and strides (lesson 13's way), so a launch passes pointers only.

Parts:
1. host: host time per call (perf_counter, 200 calls timed one by one, the queue drained every 20) of torch, the
   pointer path, the host-descriptor TMA path and the device-descriptor TMA path, at 1024^3 and 3000x1000x4096.
2. shapes: issue 15's shapes, torch vs shipped vs device descriptors (per call do_bench and CUDA-graph replay).
3. sweep: tiles / stages / warps for the device-descriptor kernel at 1024^3 (+bias), 2048^3 and 3000x1000x4096,
   GPU time only (graph replay).
4. pointer (only with --only pointer): the pointer kernel's tiles at 1024^3, fp16 and fp16 + bias with B
   transposed, GPU time only.
5. confirm (only with --only confirm): the best of part 4 against the default at every pointer-path shape.
6. final (only with --only final): the new pick_config against the old default; TMA tiles where K % 16 != 0.
7. decode (only with --only decode): M <= 64 through TMA (shipped), the pointer kernel and device descriptors.
8. odd (only with --only odd): 3000 x 1000 x 4096, the persistent TMA kernel's K step, stages and group size.
9. autotune (only with --only autotune): lesson 10's search space, the config it picks and its GPU time.
10. kmajor (only with --only kmajor): B = weight.t() with B's tile loaded K-major and transposed in registers.
Every variant is checked against torch before it is timed (probe_splitk.compare).
Run: python3 scripts/probe_device_desc.py --json out.json [--only host|shapes|sweep]
     TRITON_INTERPRET=1 python3 scripts/probe_device_desc.py --smoke   (correctness on the CPU interpreter)
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path

import torch
import triton
import triton.language as tl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from probe_launch_host import _load, host_us  # noqa: E402


@triton.jit
def device_desc_kernel(
    a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K, stride_am, stride_b, stride_cm,
    HAS_BIAS: tl.constexpr, ACTIVATION: tl.constexpr, B_TRANSPOSED: tl.constexpr,
    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr,
    NUM_PROGRAMS: tl.constexpr, WARP_SPECIALIZE: tl.constexpr,
):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[stride_am, 1], block_shape=[BLOCK_M, BLOCK_K])
    if B_TRANSPOSED:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[N, K], strides=[stride_b, 1],
                                           block_shape=[BLOCK_N, BLOCK_K])
    else:
        b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[stride_b, 1],
                                           block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[stride_cm, 1], block_shape=[BLOCK_M, BLOCK_N])
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    num_tiles = num_pid_m * num_pid_n
    k_tiles = tl.cdiv(K, BLOCK_K)
    num_pid_in_group = GROUP_M * num_pid_n
    for tile in tl.range(tl.program_id(0), num_tiles, NUM_PROGRAMS, flatten=True, warp_specialize=WARP_SPECIALIZE):
        group_id = tile // num_pid_in_group
        first_pid_m = group_id * GROUP_M
        group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
        pid_m = first_pid_m + ((tile % num_pid_in_group) % group_size_m)
        pid_n = (tile % num_pid_in_group) // group_size_m
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            a = a_desc.load([off_m, ki * BLOCK_K])
            if B_TRANSPOSED:
                b = b_desc.load([off_n, ki * BLOCK_K]).T
            else:
                b = b_desc.load([ki * BLOCK_K, off_n])
            acc = tl.dot(a, b, acc)
        if HAS_BIAS:
            offs_n = off_n + tl.arange(0, BLOCK_N)
            acc += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
        if ACTIVATION == "relu":
            acc = tl.maximum(acc, 0.0)
        elif ACTIVATION == "silu":
            acc = acc * tl.sigmoid(acc)
        c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


def operands(M, N, K, dtype, transposed, with_bias, gen):
    """A [M, K] and B [K, N] of randn on the GPU (B as weight.t() when `transposed`), an optional bias, torch's result
    and torch's call (addmm with a bias)."""
    a = torch.randn(M, K, device="cuda", dtype=dtype, generator=gen)
    b = (torch.randn(N, K, device="cuda", dtype=dtype, generator=gen).t() if transposed
         else torch.randn(K, N, device="cuda", dtype=dtype, generator=gen))
    bias = torch.randn(N, device="cuda", dtype=dtype, generator=gen) if with_bias else None
    want = torch.addmm(bias, a, b) if with_bias else a @ b
    base = (lambda: torch.addmm(bias, a, b)) if with_bias else (lambda: a @ b)
    return a, b, bias, want, base


def _scratch(size, alignment, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda" if torch.cuda.is_available() else "cpu")


_SMS: dict = {}


def device_desc(a, b, bias=None, activation=None, BM=128, BN=256, BK=64, GROUP_M=8, num_warps=8, num_stages=3,
                persistent=True, ws=False):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    transposed = b.stride(0) == 1 and b.stride(1) != 1
    triton.set_allocator(_scratch)
    tiles = triton.cdiv(M, BM) * triton.cdiv(N, BN)
    if a.device.type == "cuda":
        if a.device not in _SMS:
            _SMS[a.device] = torch.cuda.get_device_properties(a.device).multi_processor_count
        sms = _SMS[a.device]
    else:
        sms = 3
    programs = min(tiles, sms) if persistent else tiles
    device_desc_kernel[(programs,)](
        a, b, c, bias if bias is not None else c, M, N, K, a.stride(0), b.stride(1) if transposed else b.stride(0),
        c.stride(0), HAS_BIAS=bias is not None, ACTIVATION=activation or "", B_TRANSPOSED=transposed,
        BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=GROUP_M, NUM_PROGRAMS=programs, WARP_SPECIALIZE=ws,
        **({"num_warps": num_warps, "num_stages": num_stages} if a.device.type == "cuda" else {}),
    )
    return c


def device_default(fast, a, b, bias=None, activation=None):
    """matmul_fast.matmul with its own pick_config, the TMA rows built on the device."""
    M, K = a.shape
    N = b.shape[1]
    cfg = fast.pick_config(M, N, K, a.device, a.element_size())
    if not cfg["path"].startswith("tma"):
        return fast.matmul(a, b, bias, activation)
    return device_desc(a, b, bias, activation, BM=cfg["BLOCK_M"], BN=cfg["BLOCK_N"], BK=cfg["BLOCK_K"],
                       GROUP_M=cfg["GROUP_M"], num_warps=cfg["num_warps"], num_stages=cfg["num_stages"],
                       persistent="persistent" in cfg["path"])


def smoke() -> int:
    """Correctness on the interpreter: small shapes, B plain and transposed, bias, activation, odd sizes."""
    bad = 0
    gen = torch.Generator().manual_seed(0)
    for M, N, K, transposed, bias, act in [(40, 48, 64, False, False, None), (37, 56, 72, True, True, "relu"),
                                           (64, 40, 24, False, True, "silu"), (5, 8, 8, True, False, None)]:
        a = torch.randn(M, K, generator=gen)
        b = torch.randn(N, K, generator=gen).t() if transposed else torch.randn(K, N, generator=gen)
        bv = torch.randn(N, generator=gen) if bias else None
        want = a @ b + (bv if bias else 0)
        want = torch.relu(want) if act == "relu" else torch.nn.functional.silu(want) if act == "silu" else want
        got = device_desc(a, b, bv, act, BM=16, BN=16, BK=16, GROUP_M=2)
        ok = torch.allclose(got, want, atol=1e-3, rtol=1e-3)
        bad += not ok
        print(f"{M}x{N}x{K} transposed={transposed} bias={bias} act={act}: {'ok' if ok else 'WRONG'}", flush=True)
    return 1 if bad else 0


def host_part(fast, rows):
    gen = torch.Generator(device="cuda").manual_seed(2)
    for M, N, K in [(1024, 1024, 1024), (3000, 1000, 4096), (16, 4096, 4096)]:
        a = torch.randn(M, K, device="cuda", dtype=torch.float16, generator=gen)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16, generator=gen)
        cfg = fast.pick_config(M, N, K, a.device)
        tma_cfg = cfg if cfg["path"].startswith("tma") else dict(
            path="tma-persistent", BLOCK_M=128, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=8, num_stages=3)
        launch = {k: v for k, v in tma_cfg.items() if k != "path"}
        calls = {
            "torch a @ b": lambda a=a, b=b: a @ b,
            "matmul_fast pointer path": lambda a=a, b=b: fast.matmul(a, b, path="pointer"),
            "matmul_fast host descriptors": lambda a=a, b=b, c=launch: fast.matmul(a, b, config=c,
                                                                                    path=tma_cfg["path"]),
            "device descriptors": lambda a=a, b=b, c=tma_cfg: device_desc(
                a, b, BM=c["BLOCK_M"], BN=c["BLOCK_N"], BK=c["BLOCK_K"], GROUP_M=c["GROUP_M"],
                num_warps=c["num_warps"], num_stages=c["num_stages"], persistent="persistent" in c["path"]),
        }
        for rnd in range(3):
            for name, fn in calls.items():
                us = host_us(fn)[0]  # median of 200 calls
                print(f"host {M}x{N}x{K} round {rnd} {name:<32} {us:7.1f} us per call", flush=True)
                rows.append({"part": "host", "shape": f"{M}x{N}x{K}", "call": name, "round": rnd, "host_us": us})


def shapes_part(fast, compare, rows):
    gen = torch.Generator(device="cuda").manual_seed(0)
    cases = [(n, n, n, torch.float16, False) for n in (1024, 2048, 4096, 8192)]
    cases += [(n, n, n, torch.bfloat16, False) for n in (1024, 4096, 8192)]
    cases += [(16, 4096, 4096, torch.float16, False), (4096, 4096, 1000, torch.float16, False),
              (3000, 1000, 4096, torch.float16, False)]
    cases += [(n, n, n, torch.float16, True) for n in (1024, 4096, 8192)]
    for M, N, K, dtype, fused in cases:
        a, b, bias, want, base = operands(M, N, K, dtype, fused, fused, gen)
        variants = {
            "shipped": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias),
            "device descriptors": lambda a=a, b=b, bias=bias: device_default(fast, a, b, bias),
        }
        title = f"{M}x{N}x{K} {str(dtype)[6:]}" + (" +bias/addmm" if fused else "")
        tol = (2e-2, 1e-2) if dtype == torch.float16 else (1e-1, 2e-2)
        compare(title, 2 * M * N * K, want, base, variants, rows, tol)


def sweep_part(compare, rows):
    gen = torch.Generator(device="cuda").manual_seed(1)
    configs = [  # BM, BN, BK, warps, stages, persistent, ws
        (128, 256, 64, 8, 3, True, False), (128, 128, 64, 8, 3, True, False), (128, 128, 64, 8, 4, True, False),
        (128, 128, 64, 4, 4, True, False), (128, 128, 64, 8, 4, False, False), (128, 64, 64, 4, 4, True, False),
        (128, 64, 64, 4, 5, False, False), (64, 128, 64, 4, 4, True, False), (64, 128, 64, 4, 5, False, False),
        (128, 128, 128, 8, 3, True, False), (128, 64, 128, 4, 3, False, False), (64, 64, 128, 4, 4, False, False),
        (128, 128, 64, 8, 4, True, True), (128, 256, 64, 8, 3, True, True), (256, 128, 64, 8, 3, True, False),
    ]
    for M, N, K, fused in [(1024, 1024, 1024, False), (1024, 1024, 1024, True), (2048, 2048, 2048, False),
                           (3000, 1000, 4096, False)]:
        a, b, bias, want, base = operands(M, N, K, torch.float16, fused, fused, gen)
        variants = {}
        for bm, bn, bk, w, s, p, ws in configs:
            name = f"{bm}x{bn}x{bk} w{w} s{s}" + (" pers" if p else "") + (" ws" if ws else "")
            variants[name] = (lambda a=a, b=b, bias=bias, bm=bm, bn=bn, bk=bk, w=w, s=s, p=p, ws=ws: device_desc(
                a, b, bias, BM=bm, BN=bn, BK=bk, num_warps=w, num_stages=s, persistent=p, ws=ws))
        title = f"sweep {M}x{N}x{K} fp16" + (" +bias/addmm" if fused else "")
        compare(title, 2 * M * N * K, want, base, variants, rows, (2e-2, 1e-2))


def pointer_part(fast, compare, rows):
    """The pointer kernel's space at 1024^3 (where it is the default), GPU time only; B plain and transposed."""
    gen = torch.Generator(device="cuda").manual_seed(3)
    space = [(bm, bn, bk, w, s, g) for bm, bn in [(64, 128), (128, 64), (64, 64), (128, 128)]
             for bk in (32, 64, 128) for w in (4, 8) for s in (3, 4, 5) for g in (8,)
             if not (bm * bn >= 16384 and w == 4 and bk == 128) and not (bm * bn <= 4096 and w == 8)]
    space += [(64, 128, 64, 4, 4, 4), (64, 128, 64, 4, 4, 16), (64, 128, 64, 4, 6, 8), (64, 128, 64, 2, 4, 8)]
    for M, N, K, dtype, fused in [(1024, 1024, 1024, torch.float16, False), (1024, 1024, 1024, torch.float16, True)]:
        a, b, bias, want, base = operands(M, N, K, dtype, fused, fused, gen)
        variants = {"shipped": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias)}
        for bm, bn, bk, w, s, g in space:
            cfg = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g, num_warps=w, num_stages=s)
            variants[f"ptr {bm}x{bn}x{bk} w{w} s{s} g{g}"] = (
                lambda a=a, b=b, bias=bias, cfg=cfg: fast.matmul(a, b, bias, config=cfg, path="pointer"))
        title = f"pointer {M}x{N}x{K} {str(dtype)[6:]}" + (" +bias/addmm" if fused else "")
        compare(title, 2 * M * N * K, want, base, variants, rows, (2e-2, 1e-2) if dtype == torch.float16
                else (1e-1, 2e-2))


def confirm_part(fast, compare, rows):
    """The best pointer tiles of `pointer_part` against the shipped default, at every shape that takes the pointer
    path on an H200 (fewer than 0.7 of a wave of 128 x 256 tiles), B plain and transposed, with and without bias."""
    gen = torch.Generator(device="cuda").manual_seed(4)
    space = [(64, 128, 64, 4, 4), (64, 128, 64, 4, 5), (64, 128, 64, 4, 6), (64, 128, 64, 4, 7),
             (64, 128, 128, 4, 3), (64, 128, 128, 4, 4), (64, 128, 128, 4, 5), (128, 64, 128, 8, 4)]
    cases = [(1024, 1024, 1024, torch.float16, False, False), (1024, 1024, 1024, torch.bfloat16, False, False),
             (1024, 1024, 1024, torch.float16, True, True), (1024, 1024, 1024, torch.float16, True, False),
             (1024, 1024, 1024, torch.float16, False, True), (512, 512, 512, torch.float16, False, False),
             (1024, 2048, 1024, torch.float16, False, False), (1024, 1024, 4096, torch.float16, False, False),
             (1536, 1536, 1536, torch.float16, False, False), (1000, 1000, 1000, torch.float16, False, False)]
    for M, N, K, dtype, transposed, with_bias in cases:
        a, b, bias, want, base = operands(M, N, K, dtype, transposed, with_bias, gen)
        variants = {"shipped": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias)}
        for bm, bn, bk, w, st in space:
            cfg = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, num_warps=w, num_stages=st)
            variants[f"ptr {bm}x{bn}x{bk} w{w} s{st}"] = (
                lambda a=a, b=b, bias=bias, cfg=cfg: fast.matmul(a, b, bias, config=cfg, path="pointer"))
        title = (f"confirm {M}x{N}x{K} {str(dtype)[6:]}" + (" B.t()" if transposed else "")
                 + (" +bias/addmm" if with_bias else ""))
        compare(title, 2 * M * N * K, want, base, variants, rows, (2e-2, 1e-2) if dtype == torch.float16
                else (1e-1, 2e-2))


def final_part(fast, compare, rows):
    """The new `pick_config` against the old default (64 x 128 x 64, 4 stages, pointer), and at 1000^3 (strides not
    a multiple of 16 elements) the pointer kernel against the non-persistent TMA kernel's tiles."""
    gen = torch.Generator(device="cuda").manual_seed(5)
    old = dict(BLOCK_M=64, BLOCK_N=128, BLOCK_K=64, GROUP_M=8, num_warps=4, num_stages=4)
    tma = {"tma 64x128x64 w4 s4": (64, 128, 64, 4, 4), "tma 64x128x64 w4 s5": (64, 128, 64, 4, 5),
           "tma 128x64x64 w4 s5": (128, 64, 64, 4, 5), "tma 128x128x64 w8 s4": (128, 128, 64, 8, 4),
           "tma 64x128x128 w4 s3": (64, 128, 128, 4, 3)}
    cases = [(1024, 1024, 1024, torch.float16, False, False), (1024, 1024, 1024, torch.bfloat16, False, False),
             (1024, 1024, 1024, torch.float16, True, True), (1024, 1024, 1024, torch.float16, False, True),
             (512, 512, 512, torch.float16, False, False), (1024, 2048, 1024, torch.float16, False, False),
             (1024, 1024, 4096, torch.float16, False, False), (1000, 1000, 1000, torch.float16, False, False),
             (1000, 1000, 1000, torch.float16, True, True), (1000, 1000, 1000, torch.bfloat16, False, False),
             (2000, 1000, 1000, torch.float16, False, False), (1024, 1024, 1000, torch.float16, False, False)]
    for M, N, K, dtype, transposed, with_bias in cases:
        a, b, bias, want, base = operands(M, N, K, dtype, transposed, with_bias, gen)
        variants = {"new default": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias),
                    "old default": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias, config=old, path="pointer")}
        if K % 16:
            for name, (bm, bn, bk, w, st) in tma.items():
                cfg = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=8, num_warps=w, num_stages=st)
                variants[name] = lambda a=a, b=b, bias=bias, cfg=cfg: fast.matmul(a, b, bias, config=cfg, path="tma")
        title = (f"final {M}x{N}x{K} {str(dtype)[6:]}" + (" B.t()" if transposed else "")
                 + (" +bias/addmm" if with_bias else ""))
        print(title, "new config:", fast.pick_config(M, N, K, a.device, a.element_size(),
                                                     aligned=fast.strides_aligned(a, b)), flush=True)
        compare(title, 2 * M * N * K, want, base, variants, rows, (2e-2, 1e-2) if dtype == torch.float16
                else (1e-1, 2e-2))


def decode_part(fast, compare, rows):
    """M <= 64 (decode): the shipped TMA tile against the same tile through the pointer kernel and through device
    descriptors; GPU time, per-call time and host time per call."""
    gen = torch.Generator(device="cuda").manual_seed(6)
    for M, N, K, transposed, with_bias in [(16, 4096, 4096, False, False), (1, 4096, 4096, False, False),
                                           (64, 4096, 4096, False, False), (32, 11008, 4096, False, False),
                                           (16, 4096, 4096, True, True)]:
        dtype = torch.float16
        a, b, bias, want, base = operands(M, N, K, dtype, transposed, with_bias, gen)
        cfg = {k: v for k, v in fast.pick_config(M, N, K, a.device).items() if k != "path"}
        variants = {
            "shipped (tma)": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias),
            "pointer, same tile": lambda a=a, b=b, bias=bias, c=cfg: fast.matmul(a, b, bias, config=c, path="pointer"),
            "pointer 16x64x128 w4 s4": lambda a=a, b=b, bias=bias: fast.matmul(
                a, b, bias, config=dict(BLOCK_M=16, BLOCK_N=64, BLOCK_K=128, GROUP_M=1, num_warps=4, num_stages=4),
                path="pointer"),
            "device descriptors": lambda a=a, b=b, bias=bias, c=cfg: device_desc(
                a, b, bias, BM=c["BLOCK_M"], BN=c["BLOCK_N"], BK=c["BLOCK_K"], GROUP_M=c["GROUP_M"],
                num_warps=c["num_warps"], num_stages=c["num_stages"], persistent=False),
        }
        title = f"decode {M}x{N}x{K} fp16" + (" B.t()" if transposed else "") + (" +bias/addmm" if with_bias else "")
        compare(title, 2 * M * N * K, want, base, variants, rows, (2e-2, 1e-2))
        for name, fn in [("torch", base)] + list(variants.items()):
            us = [host_us(fn)[0] for _ in range(3)]
            print(f"{title:<34} {name:<28} host {statistics.median(us):7.1f} us per call", flush=True)
            rows.append({"part": "decode-host", "shape": title, "call": name, "host_us": us})


def odd_part(fast, compare, rows):
    """3000 x 1000 x 4096 (96 tiles of 128 x 256 for 132 SMs): the persistent TMA kernel's K step, stages and
    group size, GPU time only."""
    gen = torch.Generator(device="cuda").manual_seed(7)
    a = torch.randn(3000, 4096, device="cuda", dtype=torch.float16, generator=gen)
    b = torch.randn(4096, 1000, device="cuda", dtype=torch.float16, generator=gen)
    variants = {"shipped": lambda: fast.matmul(a, b)}
    for bm, bn, bk, w, st, g, path in [(128, 256, 32, 8, 5, 8, "tma-persistent"), (128, 256, 32, 8, 6, 8, "tma-persistent"),
                                       (128, 256, 64, 8, 3, 1, "tma-persistent"), (128, 256, 64, 8, 3, 4, "tma-persistent"),
                                       (128, 256, 64, 8, 3, 16, "tma-persistent"), (128, 256, 64, 8, 3, 8, "tma"),
                                       (128, 256, 64, 8, 3, 8, "tma-persistent-ws"), (256, 128, 32, 8, 6, 8, "tma-persistent"),
                                       (128, 256, 32, 8, 6, 8, "tma-persistent-ws")]:
        cfg = dict(BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=g, num_warps=w, num_stages=st)
        variants[f"{path} {bm}x{bn}x{bk} w{w} s{st} g{g}"] = lambda cfg=cfg, path=path: fast.matmul(a, b, config=cfg,
                                                                                                   path=path)
    compare("odd 3000x1000x4096 fp16", 2 * 3000 * 1000 * 4096, a @ b, lambda: a @ b, variants, rows, (2e-2, 1e-2))


@triton.jit
def kmajor_kernel(a_ptr, w_ptr, bias_ptr, c_ptr, M, N, K, stride_am, stride_wn, stride_cm,
                  HAS_BIAS: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                  GROUP_M: tl.constexpr):
    """matmul_fast_kernel for B = weight.t() (EVEN_K assumed): B's tile loaded as weight's [BLOCK_N, BLOCK_K] rows
    (K contiguous) and transposed in registers, instead of a [BLOCK_K, BLOCK_N] tile with a stride of K along N."""
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
    w_ptrs = w_ptr + offs_n[:, None] * stride_wn + offs_k[None, :]
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for _ in range(0, tl.cdiv(K, BLOCK_K)):
        a = tl.load(a_ptrs, mask=offs_m[:, None] < M, other=0.0)
        w = tl.load(w_ptrs, mask=offs_n[:, None] < N, other=0.0)
        acc = tl.dot(a, w.T, acc)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    if HAS_BIAS:
        acc += tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
    c_ptrs = c_ptr + offs_m[:, None] * stride_cm + offs_n[None, :]
    tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(offs_m[:, None] < M) & (offs_n[None, :] < N))


def kmajor(a, b, bias, BM, BN, BK, w, st):
    M, K = a.shape
    N = b.shape[1]
    weight = b.t()
    assert weight.stride(1) == 1 and K % BK == 0
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    grid = (triton.cdiv(M, BM) * triton.cdiv(N, BN),)
    kmajor_kernel[grid](a, weight, bias if bias is not None else c, c, M, N, K, a.stride(0), weight.stride(0),
                        c.stride(0), HAS_BIAS=bias is not None, BLOCK_M=BM, BLOCK_N=BN, BLOCK_K=BK, GROUP_M=8,
                        num_warps=w, num_stages=st)
    return c


def kmajor_part(fast, compare, rows):
    """B = weight.t() at 1024^3 (F.linear's layout): the shipped pointer kernel against B loaded K-major."""
    gen = torch.Generator(device="cuda").manual_seed(9)
    for M, N, K, with_bias in [(1024, 1024, 1024, True), (1024, 1024, 1024, False), (1024, 1024, 4096, True)]:
        a, b, bias, want, base = operands(M, N, K, torch.float16, True, with_bias, gen)
        variants = {"shipped": lambda a=a, b=b, bias=bias: fast.matmul(a, b, bias)}
        for bm, bn, bk, w, st in [(64, 128, 128, 4, 4), (64, 128, 128, 4, 3), (64, 128, 64, 4, 6), (128, 64, 128, 8, 4),
                                  (64, 128, 64, 4, 4), (128, 128, 64, 8, 4)]:
            variants[f"kmajor {bm}x{bn}x{bk} w{w} s{st}"] = (
                lambda a=a, b=b, bias=bias, c=(bm, bn, bk, w, st): kmajor(a, b, bias, *c))
        title = f"kmajor {M}x{N}x{K} fp16 B.t()" + (" +bias/addmm" if with_bias else "")
        compare(title, 2 * M * N * K, want, base, variants, rows, (2e-2, 1e-2))


def autotune_part(compare, rows):
    """Lesson 10's reference search space at 1024^3, 4096^3 and 16 x 4096 x 4096: the config it picks and its GPU
    time against torch."""
    tuned = _load("autotune_matmul")
    gen = torch.Generator(device="cuda").manual_seed(8)
    for M, N, K in [(1024, 1024, 1024), (4096, 4096, 4096), (16, 4096, 4096)]:
        a = torch.randn(M, K, device="cuda", dtype=torch.float16, generator=gen)
        b = torch.randn(K, N, device="cuda", dtype=torch.float16, generator=gen)
        tuned.matmul(a, b)  # the search, outside the timing
        torch.cuda.synchronize()
        title = f"autotune {M}x{N}x{K} fp16"
        best = tuned.matmul_kernel.best_config
        print(title, "picked:", best.kwargs, "warps", best.num_warps, "stages", best.num_stages, flush=True)
        rows.append({"part": "autotune-pick", "shape": title, "config": str(best)})
        compare(title, 2 * M * N * K, a @ b, lambda a=a, b=b: a @ b,
                {"autotune_matmul": lambda a=a, b=b: tuned.matmul(a, b)}, rows, (2e-2, 1e-2))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--only", choices=["host", "shapes", "sweep", "pointer", "confirm", "final", "decode", "odd", "autotune", "kmajor"])
    parser.add_argument("--smoke", action="store_true")
    opts = parser.parse_args()
    if opts.smoke:
        return smoke()
    from probe_splitk import compare

    fast = _load("matmul_fast")
    print(torch.cuda.get_device_name(0), torch.__version__, triton.__version__, flush=True)
    rows: list = []
    if opts.only in (None, "host"):
        host_part(fast, rows)
    if opts.only in (None, "shapes"):
        shapes_part(fast, compare, rows)
    if opts.only in (None, "sweep"):
        sweep_part(compare, rows)
    if opts.only == "pointer":
        pointer_part(fast, compare, rows)
    if opts.only == "confirm":
        confirm_part(fast, compare, rows)
    if opts.only == "final":
        final_part(fast, compare, rows)
    if opts.only == "decode":
        decode_part(fast, compare, rows)
    if opts.only == "odd":
        odd_part(fast, compare, rows)
    if opts.only == "autotune":
        autotune_part(compare, rows)
    if opts.only == "kmajor":
        kmajor_part(fast, compare, rows)
    if opts.json:
        Path(opts.json).write_text(json.dumps({"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__,
                                               "triton": triton.__version__, "rows": rows}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
