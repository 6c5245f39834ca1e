"""Probe (not a test): issue 15's last plain-GEMM gap, 3000 x 1000 x 4096 fp16 (0.76x cuBLAS with 96 tiles of
128 x 256 on 132 SMs: 36 SMs idle).

Triton's block shapes are powers of two, but a tile need not be one block: here a 192 x 128 tile is two dots per
K step, rows [0, 128) and [128, 192), each with its own A descriptor and accumulator, one shared B tile. At
3000 x 1000 that is 16 x 8 = 128 tiles: one wave on 132 SMs, each tile 3/4 of a 128 x 256 one.

Every variant is checked against torch before it is timed; torch, matmul_fast's default and the variants are timed
in turn (per call: descriptors built in every call, as matmul_fast does), ROUNDS rounds of do_bench medians.
Run: python3 scripts/probe_tile192.py [--json out.json]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
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


@triton.jit
def split_rows_kernel(a_top, a_bot, b_desc, c_top, c_bot, bias_ptr, M, N, K,
                      HAS_BIAS: tl.constexpr, TOP: tl.constexpr, BOT: tl.constexpr, BLOCK_N: tl.constexpr,
                      BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, NUM_PROGRAMS: tl.constexpr,
                      WARP_SPECIALIZE: tl.constexpr):
    BLOCK_M: tl.constexpr = TOP + BOT
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
        acc0 = tl.zeros((TOP, BLOCK_N), dtype=tl.float32)
        acc1 = tl.zeros((BOT, BLOCK_N), dtype=tl.float32)
        for ki in range(k_tiles):
            b = b_desc.load([ki * BLOCK_K, off_n])
            acc0 = tl.dot(a_top.load([off_m, ki * BLOCK_K]), b, acc0)
            acc1 = tl.dot(a_bot.load([off_m + TOP, ki * BLOCK_K]), b, acc1)
        if HAS_BIAS:
            offs_n = off_n + tl.arange(0, BLOCK_N)
            bias = tl.load(bias_ptr + offs_n, mask=offs_n < N, other=0.0).to(tl.float32)[None, :]
            acc0 += bias
            acc1 += bias
        c_top.store([off_m, off_n], acc0.to(c_top.dtype))
        c_bot.store([off_m + TOP, off_n], acc1.to(c_bot.dtype))


def split_rows(a, b, bias, cfg, sms):
    M, K = a.shape
    N = b.shape[1]
    top, bot, bn, bk = cfg["TOP"], cfg["BOT"], cfg["BLOCK_N"], cfg["BLOCK_K"]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    tiles = triton.cdiv(M, top + bot) * triton.cdiv(N, bn)
    programs = min(tiles, sms)
    split_rows_kernel[(programs,)](
        TensorDescriptor.from_tensor(a, [top, bk]), TensorDescriptor.from_tensor(a, [bot, bk]),
        TensorDescriptor.from_tensor(b, [bk, bn]),
        TensorDescriptor.from_tensor(c, [top, bn]), TensorDescriptor.from_tensor(c, [bot, bn]),
        bias if bias is not None else c, M, N, K, HAS_BIAS=bias is not None,
        TOP=top, BOT=bot, BLOCK_N=bn, BLOCK_K=bk, GROUP_M=cfg["GROUP_M"], NUM_PROGRAMS=programs,
        WARP_SPECIALIZE=cfg["ws"], num_warps=cfg["num_warps"], num_stages=cfg["num_stages"],
    )
    return c


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()
    fast = _load("matmul_fast")
    torch.manual_seed(0)
    dev = torch.device("cuda")
    sms = torch.cuda.get_device_properties(0).multi_processor_count
    shapes = [(3000, 1000, 4096, False), (3000, 1000, 4096, True), (4096, 4096, 4096, False)]
    space = []
    for top, bot, bn in ((128, 64, 128), (64, 64, 256), (128, 128, 64)):
        for stages in (3, 4, 5):
            for ws in (False, True):
                space.append(dict(TOP=top, BOT=bot, BLOCK_N=bn, BLOCK_K=64, GROUP_M=8, num_warps=8,
                                  num_stages=stages, ws=ws))
    report = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "triton": triton.__version__,
              "shapes": []}
    for M, N, K, with_bias in shapes:
        a = torch.randn(M, K, device=dev, dtype=torch.float16)
        b = torch.randn(K, N, device=dev, dtype=torch.float16)
        bias = torch.randn(N, device=dev, dtype=torch.float16) if with_bias else None
        ref = torch.addmm(bias, a, b) if with_bias else a @ b
        if with_bias:
            def torch_fn():
                return torch.addmm(bias, a, b)
        else:
            def torch_fn():
                return a @ b
        cands = {"torch": torch_fn, "default": lambda: fast.matmul(a, b, bias)}
        notes = {}
        for cfg in space:
            name = f"{cfg['TOP']}+{cfg['BOT']}x{cfg['BLOCK_N']} s{cfg['num_stages']}" + (" ws" if cfg["ws"] else "")
            tiles = triton.cdiv(M, cfg["TOP"] + cfg["BOT"]) * triton.cdiv(N, cfg["BLOCK_N"])
            if M * N > 4096 * 2048 and tiles > sms and cfg["num_stages"] != 4:
                continue  # the big square only needs one point per tile shape
            try:
                out = split_rows(a, b, bias, cfg, sms)
                torch.cuda.synchronize()
                err = (out.float() - ref.float()).abs().max().item()
                if not err <= 0.05 * max(1.0, ref.float().abs().max().item() / 64):
                    notes[name] = f"WRONG max err {err}"
                    continue
            except Exception as exc:  # noqa: BLE001 - a probe reports every failure and goes on
                notes[name] = f"{type(exc).__name__}: {str(exc)[:120]}"
                continue
            cands[name] = (lambda cfg=cfg: split_rows(a, b, bias, cfg, sms))
        times = {k: [] for k in cands}
        for _ in range(ROUNDS):
            for name, fn in cands.items():
                times[name].append(do_bench(fn, warmup=25, rep=100))
        med = {k: statistics.median(v) for k, v in times.items()}
        tag = f"{M}x{N}x{K}" + (" +bias" if with_bias else "")
        print(f"== {tag}: torch {med['torch'] * 1e3:.1f} us")
        for name, ms in sorted(med.items(), key=lambda kv: kv[1]):
            print(f"  {name:28s} {ms * 1e3:8.1f} us  {med['torch'] / ms:5.2f}x")
        for name, note in notes.items():
            print(f"  {name:28s} {note}")
        report["shapes"].append({"shape": tag, "ms": times, "notes": notes})
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
