"""GPU timing done right, and the wrong way it is often done, side by side (lesson 6).

Right: `triton.testing.do_bench` — warm-up runs first (compilation and caches out of the way), the L2 cache is
flushed before every run (no run is served from the previous one's cache), each run is bracketed by CUDA
events (the GPU's own clock, measuring the GPU's work rather than the host's launch), and the result is a
median with the 20th and 80th percentiles over many runs. Wrong: a host timer around one call, no warm-up, no
synchronisation.
"""

from __future__ import annotations

import time

QUANTILES = [0.5, 0.2, 0.8]
MIN_REP_MS = 100  # do_bench's default time budget per measurement
MIN_RUNS = 25  # at least this many timed runs, even for slow kernels
MAX_REP_MS = 3000


def _estimate_ms(fn) -> float:
    import torch

    fn()
    torch.cuda.synchronize()
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    fn()
    end.record()
    torch.cuda.synchronize()
    return max(start.elapsed_time(end), 1e-3)


def measure(fn, rep_ms: float | None = None) -> dict:
    """{ms, ms_q20, ms_q80, rep_ms}: median and 20th/80th percentiles of `fn` by triton.testing.do_bench."""
    from triton.testing import do_bench

    if rep_ms is None:
        rep_ms = min(max(MIN_REP_MS, MIN_RUNS * _estimate_ms(fn)), MAX_REP_MS)
    values = do_bench(fn, warmup=25, rep=rep_ms, quantiles=QUANTILES)
    median, q20, q80 = (float(v) for v in values)
    return {"ms": median, "ms_q20": q20, "ms_q80": q80, "rep_ms": round(rep_ms, 1)}


def naive(fn) -> float:
    """The wrong way, on purpose: a host timer around a single call, no warm-up, no synchronisation (ms)."""
    began = time.perf_counter()
    fn()
    return (time.perf_counter() - began) * 1e3


def synchronize() -> None:
    import torch

    torch.cuda.synchronize()
