"""Probe (not a test): how much shared memory each reference kernel's GPU launch asks for, at the stages it uses
and with one stage fewer, on the GPU at hand (compiled kernels' metadata.shared). Which kernels would a 99 KB
GPU (RTX 3090/4090: shared_memory_per_block_optin = 101376) or an A100 (166912) refuse?
Run: python3 scripts/probe_shared_memory.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from probe_launch_host import _load  # noqa: E402


def shared_of(jit_fn) -> list:
    out = []
    for cache in getattr(jit_fn, "device_caches", {}).values():
        for kernel in cache[0].values():
            out.append((kernel.metadata.num_stages, kernel.metadata.num_warps, kernel.metadata.shared))
    return out


def main() -> int:
    print(torch.cuda.get_device_name(0), "shared_memory_per_block_optin",
          torch.cuda.get_device_properties(0).shared_memory_per_block_optin, flush=True)
    fa = _load("flash_attention")
    for d in (16, 32, 64, 128):
        for dtype in (torch.float16, torch.bfloat16):
            q, k, v = (torch.randn(2, 4, 1024, d, device="cuda", dtype=dtype) for _ in range(3))
            for causal in (False, True):
                fa.attention(q, k, v, causal=causal)
    print("flash_attention (d 16..128, fp16/bf16, causal or not): (stages, warps, shared bytes)",
          sorted(set(shared_of(fa.attention_kernel))), flush=True)
    for name, kernel, call in [
        ("matmul", "matmul_kernel", lambda m, a, b: m.matmul(a, b)),
        ("matmul_bias", "matmul_bias_kernel", lambda m, a, b: m.matmul_bias(a, b, b[0].clone())),
        ("matmul_persistent", "matmul_persistent_kernel", lambda m, a, b: m.matmul(a, b)),
    ]:
        m = _load(name)
        for n in (1024, 4096):
            a = torch.randn(n, n, device="cuda", dtype=torch.float16)
            b = torch.randn(n, n, device="cuda", dtype=torch.float16)
            call(m, a, b)
        print(name, sorted(set(shared_of(getattr(m, kernel)))), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
