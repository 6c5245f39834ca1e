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


HOST_BOUND_RATIO = 1.25  # a call this much longer than its GPU work ...
HOST_BOUND_MIN_MS = 0.005  # ... and at least 5 µs longer: the host, not the kernel, sets the pace


def gpu_only(fn, rep_ms: float = MIN_REP_MS) -> float | None:
    """gpu_time(fn)'s time alone (None when fn cannot be captured)."""
    return gpu_time(fn, rep_ms)[0]


def gpu_time(fn, rep_ms: float = MIN_REP_MS) -> tuple[float | None, str | None]:
    """The GPU's share of one call (ms): `fn` captured once in a CUDA graph, the graph replayed under do_bench
    (the same L2 flush and CUDA events as `measure`). A replay launches the recorded kernels with no Python,
    no wrapper and no Triton argument handling, so `measure(fn)` well above this is host time per call: a
    kernel of a few microseconds whose launch costs more. None when `fn` cannot be captured (it synchronises,
    reads a value back to the host, or autotunes a new key), with the reason second; call it after `measure`,
    which warms `fn` up."""
    import torch
    from triton.testing import do_bench

    # One attempt: capturing the same call again does not help where the first failed (lesson 12's first
    # backward graph failed twice in a row on the H200); bench.py retries a backward on a fresh forward.
    graph = None
    try:
        graph = torch.cuda.CUDAGraph()  # raises without CUDA: reported like any other failure
        with torch.cuda.graph(graph, capture_error_mode="thread_local"):
            fn()
        graph.replay()
        torch.cuda.synchronize()
        return float(do_bench(graph.replay, warmup=25, rep=rep_ms, quantiles=QUANTILES)[0]), None
    except Exception as exc:  # noqa: BLE001 - not capturable: the row keeps do_bench's number alone
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        return None, f"{type(exc).__name__}: {first[:200]}"
    finally:
        del graph


def host_bound(ms: float | None, gpu_ms: float | None) -> bool:
    """Whether a call's time (do_bench) is mostly host time: well above its GPU time (gpu_only)."""
    if not ms or not gpu_ms:
        return False
    return ms > HOST_BOUND_RATIO * gpu_ms and ms - gpu_ms >= HOST_BOUND_MIN_MS


def naive(fn) -> float:
    """The wrong way, on purpose: a host timer around a single call, no warm-up, no synchronisation (ms)."""
    began = time.perf_counter()
    fn()
    return (time.perf_counter() - began) * 1e3


def synchronize() -> None:
    import torch

    torch.cuda.synchronize()
