"""Probe (not a test): is the H200 box's 2x host-time spread between processes a matter of which CPU runs them?

Prints, in one line per process: the CPUs it may run on, the CPU it ran on, a pure-Python loop's time (no CUDA),
and the host time per call (probe_launch_host.host_us) of torch `a @ b` and of matmul_fast at 1024^3 (pointer
kernel) and 3000 x 1000 x 4096 (TMA kernel). Run it under `taskset -c N` for several N, and unpinned.
Run: python3 scripts/probe_host_cpu.py [--info]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
from probe_launch_host import _load, host_us  # noqa: E402


def python_loop_ms() -> float:
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        total = 0
        for i in range(200_000):
            total += i & 7
        best = min(best, time.perf_counter() - t)
    return best * 1e3


def info() -> None:
    nodes = sorted(Path("/sys/devices/system/node").glob("node[0-9]*"))
    for node in nodes:
        print(node.name, "cpus", (node / "cpulist").read_text().strip(), flush=True)
    for dev in Path("/sys/bus/pci/devices").glob("*"):
        try:
            if (dev / "vendor").read_text().strip() == "0x10de" and (dev / "class").read_text().startswith("0x03"):
                print("GPU", dev.name, "local cpus", (dev / "local_cpulist").read_text().strip(), "numa node",
                      (dev / "numa_node").read_text().strip(), flush=True)
        except OSError:
            pass
    print("online cpus", Path("/sys/devices/system/cpu/online").read_text().strip(), flush=True)


def main() -> int:
    if "--info" in sys.argv:
        info()
        return 0
    fast = _load("matmul_fast")
    a = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    b = torch.randn(1024, 1024, device="cuda", dtype=torch.float16)
    a3 = torch.randn(3000, 4096, device="cuda", dtype=torch.float16)
    b3 = torch.randn(4096, 1000, device="cuda", dtype=torch.float16)
    cpus = sorted(os.sched_getaffinity(0))
    loop = python_loop_ms()
    torch_us = host_us(lambda: a @ b)[0]
    ptr_us = host_us(lambda: fast.matmul(a, b))[0]
    tma_us = host_us(lambda: fast.matmul(a3, b3))[0]
    ran_on = open("/proc/self/stat").read().split()[38]
    print(f"allowed {cpus[0]}-{cpus[-1]} ({len(cpus)}) ran on cpu {ran_on}: python loop {loop:6.2f} ms | host us: "
          f"torch a@b {torch_us:6.1f}  matmul_fast 1024^3 {ptr_us:6.1f}  3000x1000x4096 TMA {tma_us:6.1f}",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
