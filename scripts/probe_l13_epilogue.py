"""Lesson 13's descriptor GEMM: does the C tile's trip through shared memory cost a pipeline stage?

    python3 scripts/probe_l13_epilogue.py [--json out.json]

The shipped kernel (kernels/matmul_descriptors.py) stores C through a descriptor: a 128 x 256 fp16 tile is
staged in 64 KiB of shared memory, so with 48 KiB per stage of A and B only 3 stages fit (232,448 B a program
on an H100/H200). Variants of the same kernel, each checked against torch first, timed per call with do_bench
(median of 3 interleaved rounds) at 4096^3 and 8192^3 fp16/bf16, torch in the same rounds:
  desc        C through the descriptor (shipped), 3 stages
  subtile     C stored as two 128 x 128 halves through a half-width descriptor (32 KiB), 3 or 4 stages
  pointer     C stored with tl.store from registers (no staging), 3 or 4 stages
each with and without warp specialization. Not a test.
"""

from __future__ import annotations

import argparse
import json
import statistics

import torch
import triton
import triton.language as tl
from triton.testing import do_bench


@triton.jit
def _coords(tile_id, num_pid_m, num_pid_n, GROUP_M: tl.constexpr):
    num_pid_in_group = GROUP_M * num_pid_n
    group_id = tile_id // num_pid_in_group
    first_pid_m = group_id * GROUP_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_M)
    return first_pid_m + ((tile_id % num_pid_in_group) % group_size_m), (
        tile_id % num_pid_in_group
    ) // group_size_m


@triton.jit
def kernel(
    a_ptr,
    b_ptr,
    c_ptr,
    M,
    N,
    K,
    NUM_PROGRAMS: tl.constexpr,
    BLOCK_M: tl.constexpr,
    BLOCK_N: tl.constexpr,
    BLOCK_K: tl.constexpr,
    GROUP_M: tl.constexpr,
    WARP_SPECIALIZE: tl.constexpr,
    EPILOGUE: tl.constexpr,
):
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    if EPILOGUE == "subtile":
        c_desc = tl.make_tensor_descriptor(
            c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N // 2]
        )
    else:
        c_desc = tl.make_tensor_descriptor(
            c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N]
        )
    num_pid_m = tl.cdiv(M, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    for tile_id in tl.range(
        tl.program_id(0), num_pid_m * num_pid_n, NUM_PROGRAMS, flatten=True, warp_specialize=WARP_SPECIALIZE
    ):
        pid_m, pid_n = _coords(tile_id, num_pid_m, num_pid_n, GROUP_M)
        off_m = pid_m * BLOCK_M
        off_n = pid_n * BLOCK_N
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for ki in range(tl.cdiv(K, BLOCK_K)):
            acc = tl.dot(a_desc.load([off_m, ki * BLOCK_K]), b_desc.load([ki * BLOCK_K, off_n]), acc)
        if EPILOGUE == "subtile":
            halves = tl.reshape(acc, (BLOCK_M, 2, BLOCK_N // 2)).permute(0, 2, 1)
            left, right = tl.split(halves)
            c_desc.store([off_m, off_n], left.to(c_desc.dtype))
            c_desc.store([off_m, off_n + BLOCK_N // 2], right.to(c_desc.dtype))
        elif EPILOGUE == "pointer":
            rows = off_m + tl.arange(0, BLOCK_M)
            cols = off_n + tl.arange(0, BLOCK_N)
            tl.store(
                c_ptr + rows[:, None] * N + cols[None, :],
                acc.to(c_ptr.dtype.element_ty),
                mask=(rows[:, None] < M) & (cols[None, :] < N),
            )
        else:
            c_desc.store([off_m, off_n], acc.to(c_desc.dtype))


def _scratch(size: int, alignment: int, stream):
    return torch.empty(size, dtype=torch.int8, device="cuda")


def run(a, b, epilogue, ws, stages):
    M, K = a.shape
    N = b.shape[1]
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    tiles = triton.cdiv(M, 128) * triton.cdiv(N, 256)
    programs = min(tiles, torch.cuda.get_device_properties(a.device).multi_processor_count)
    kernel[(programs,)](
        a,
        b,
        c,
        M,
        N,
        K,
        NUM_PROGRAMS=programs,
        BLOCK_M=128,
        BLOCK_N=256,
        BLOCK_K=64,
        GROUP_M=8,
        WARP_SPECIALIZE=ws,
        EPILOGUE=epilogue,
        num_warps=8,
        num_stages=stages,
    )
    return c


VARIANTS = [
    (e, ws, s)
    for e, s in [("desc", 3), ("subtile", 3), ("subtile", 4), ("pointer", 3), ("pointer", 4)]
    for ws in (False, True)
]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    opts = parser.parse_args()
    triton.set_allocator(_scratch)
    rows = []
    for n in (4096, 8192):
        for dtype in (torch.float16, torch.bfloat16):
            a = torch.randn(n, n, device="cuda", dtype=dtype)
            b = torch.randn(n, n, device="cuda", dtype=dtype)
            want = a @ b
            live = []
            for v in VARIANTS:
                try:
                    got = run(a, b, *v)
                    torch.cuda.synchronize()
                    ok = torch.allclose(got.float(), want.float(), atol=1e-1, rtol=2e-2)
                except Exception as exc:  # noqa: BLE001 - out of shared memory, say so
                    rows.append({"n": n, "dtype": str(dtype)[6:], "variant": v, "error": str(exc)[:160]})
                    print(n, dtype, v, "ERROR", str(exc)[:120], flush=True)
                    continue
                if not ok:
                    rows.append({"n": n, "dtype": str(dtype)[6:], "variant": v, "error": "wrong"})
                    print(n, dtype, v, "WRONG", flush=True)
                    continue
                live.append(v)
            times: dict = {v: [] for v in live}
            times["torch"] = []
            for _ in range(3):
                times["torch"].append(do_bench(lambda a=a, b=b: a @ b))
                for v in live:
                    times[v].append(do_bench(lambda v=v, a=a, b=b: run(a, b, *v)))
            torch_ms = statistics.median(times["torch"])
            for v in live:
                ms = statistics.median(times[v])
                rows.append(
                    {
                        "n": n,
                        "dtype": str(dtype)[6:],
                        "variant": v,
                        "ms": ms,
                        "torch_ms": torch_ms,
                        "ratio": torch_ms / ms,
                        "rounds": times[v],
                    }
                )
                print(
                    f"{n} {str(dtype)[6:]:8} {v[0]:8} ws={v[1]!s:5} s{v[2]}  {ms * 1e3:8.1f} us  torch "
                    f"{torch_ms * 1e3:8.1f}  {torch_ms / ms:5.3f}x",
                    flush=True,
                )
            del a, b, want
            torch.cuda.empty_cache()
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
