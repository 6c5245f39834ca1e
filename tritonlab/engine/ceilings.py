"""What a GPU can do, measured and from its datasheet: copy bandwidth and dense matmul rate.

`% of peak` and the roofline compare a kernel with what *this* GPU reaches, not with the brochure: a large
device-to-device copy (bytes read + written) gives the memory ceiling, a large torch.matmul the compute
ceiling (fp16 for half-precision benchmarks; fp32 with TF32 off for fp32 ones). Both are measured once per GPU
and torch version and kept in the user data dir (`ceilings-v1.json`); the datasheet figure is shown beside
them.
"""

from __future__ import annotations

import contextlib
import re
import time

CACHE_FILE = "ceilings-v1.json"
COPY_BYTES = 1 << 30  # per buffer: far beyond any L2
MATMUL_FP16 = 8192
MATMUL_FP32 = 4096

# Dense (no sparsity) figures from NVIDIA's datasheets: HBM/GDDR bandwidth in GB/s; tensor-core fp16 with fp32
# accumulation, and plain fp32, in TFLOP/s. First match wins, so the specific names come before the general
# ones.
DATASHEET: list[tuple[str, dict]] = [
    (r"H200 NVL", {"name": "H200 NVL", "copy_gbps": 4800, "fp16_tflops": 835, "fp32_tflops": 60}),
    (r"H200", {"name": "H200 SXM", "copy_gbps": 4800, "fp16_tflops": 989, "fp32_tflops": 67}),
    (r"H100 NVL", {"name": "H100 NVL", "copy_gbps": 3900, "fp16_tflops": 835, "fp32_tflops": 60}),
    (r"H100 PCIe", {"name": "H100 PCIe", "copy_gbps": 2000, "fp16_tflops": 756, "fp32_tflops": 51}),
    (r"H100", {"name": "H100 SXM", "copy_gbps": 3350, "fp16_tflops": 989, "fp32_tflops": 67}),
    (
        r"A100.*PCIE.*40|A100-PCIE",
        {"name": "A100 PCIe 40GB", "copy_gbps": 1555, "fp16_tflops": 312, "fp32_tflops": 19.5},
    ),
    (
        r"A100.*80GB PCIe",
        {"name": "A100 PCIe 80GB", "copy_gbps": 1935, "fp16_tflops": 312, "fp32_tflops": 19.5},
    ),
    (
        r"A100.*SXM4.*40",
        {"name": "A100 SXM 40GB", "copy_gbps": 1555, "fp16_tflops": 312, "fp32_tflops": 19.5},
    ),
    (r"A100", {"name": "A100 SXM 80GB", "copy_gbps": 2039, "fp16_tflops": 312, "fp32_tflops": 19.5}),
    (r"L40S", {"name": "L40S", "copy_gbps": 864, "fp16_tflops": 362, "fp32_tflops": 91.6}),
    (r"L40\b", {"name": "L40", "copy_gbps": 864, "fp16_tflops": 181, "fp32_tflops": 90.5}),
    (r"\bL4\b", {"name": "L4", "copy_gbps": 300, "fp16_tflops": 121, "fp32_tflops": 30.3}),
    (r"\bA10\b", {"name": "A10", "copy_gbps": 600, "fp16_tflops": 125, "fp32_tflops": 31.2}),
    (r"RTX 4090", {"name": "GeForce RTX 4090", "copy_gbps": 1008, "fp16_tflops": 165, "fp32_tflops": 82.6}),
    (r"RTX 3090", {"name": "GeForce RTX 3090", "copy_gbps": 936, "fp16_tflops": 71, "fp32_tflops": 35.6}),
    (r"V100.*PCIE", {"name": "V100 PCIe", "copy_gbps": 900, "fp16_tflops": 112, "fp32_tflops": 14}),
    (r"V100", {"name": "V100 SXM2", "copy_gbps": 900, "fp16_tflops": 125, "fp32_tflops": 15.7}),
    (r"\bT4\b", {"name": "T4", "copy_gbps": 320, "fp16_tflops": 65, "fp32_tflops": 8.1}),
]


def datasheet(gpu_name: str | None) -> dict | None:
    """The datasheet entry for a name as torch gives it ("NVIDIA H200", "NVIDIA A100-SXM4-80GB"), or None."""
    if not gpu_name:
        return None
    for pattern, entry in DATASHEET:
        if re.search(pattern, gpu_name, re.IGNORECASE):
            return dict(entry)
    return None


def compute_kind(dtype_name: str) -> str:
    """Which compute ceiling a benchmark of this dtype is held to."""
    return "fp16" if dtype_name in ("float16", "bfloat16") else "fp32"


def _time(fn) -> float:
    from tritonlab.engine.timing import measure

    return measure(fn)["ms"]


def _copy_gbps(nbytes: int) -> float:
    import torch

    src = torch.empty(nbytes // 4, dtype=torch.float32, device="cuda").fill_(1.0)
    dst = torch.empty_like(src)
    ms = _time(lambda: dst.copy_(src))
    return round(2 * nbytes / (ms * 1e-3) / 1e9, 1)


def _matmul_tflops(size: int, dtype) -> float:
    import torch

    a = torch.randn(size, size, device="cuda", dtype=dtype)
    b = torch.randn(size, size, device="cuda", dtype=dtype)
    ms = _time(lambda: torch.matmul(a, b))
    return round(2 * size**3 / (ms * 1e-3) / 1e12, 1)


def measure(progress=None) -> dict:
    """Copy bandwidth (GB/s, read + written) and matmul rates (TFLOP/s) on the current GPU, a few seconds."""
    import torch

    say = progress or (lambda message: None)
    result: dict = {"measured_at": time.strftime("%Y-%m-%dT%H:%M:%S")}
    free, _total = torch.cuda.mem_get_info()
    copy_bytes = int(min(COPY_BYTES, free // 6)) // 4 * 4
    say(f"measuring copy bandwidth ({copy_bytes >> 20} MiB device-to-device)")
    result["copy_gbps"] = _copy_gbps(copy_bytes)
    result["copy_bytes"] = copy_bytes
    say(f"measuring fp16 matmul rate ({MATMUL_FP16}³)")
    result["matmul_fp16_tflops"] = _matmul_tflops(MATMUL_FP16, torch.float16)
    say(f"measuring fp32 matmul rate ({MATMUL_FP32}³, TF32 off)")
    previous = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("highest")
    try:
        result["matmul_fp32_tflops"] = _matmul_tflops(MATMUL_FP32, torch.float32)
    finally:
        torch.set_float32_matmul_precision(previous)
    torch.cuda.empty_cache()
    return result


def for_bench(backend: str, refresh: bool = False, progress=None) -> dict | None:
    """The judge's ceilings for one bench job, from the judge's own cache (measured here on a miss).

    The judge owns the cache: runners get a private, throw-away HOME, so a cache they kept would be
    re-measured (seconds of GPU time) in every bench, and a learner's file could write numbers into it. The
    runner gets the result in its job (`args["ceilings"]`); {"error": ...} when measuring failed (% of peak is
    lost, the timings are not); None off the GPU."""
    if backend != "gpu":
        return None
    try:
        return get(progress, refresh=refresh)
    except Exception as exc:  # noqa: BLE001 - reported beside the timings
        return {"error": f"{type(exc).__name__}: {exc}"}


def cache_key(gpu_name: str, torch_version: str) -> str:
    return f"{gpu_name} | torch {torch_version}"


def get(progress=None, refresh: bool = False) -> dict:
    """{gpu, key, measured, datasheet, cached}: measured once per GPU and torch version, then cached."""
    import torch

    from tritonlab import store

    name = torch.cuda.get_device_name()
    key = cache_key(name, torch.__version__)
    cache = store.read_json(CACHE_FILE, {"version": 1, "gpus": {}})
    gpus = stored if isinstance(stored := cache.get("gpus"), dict) else {}
    measured = None if refresh else gpus.get(key)
    cached = isinstance(measured, dict) and "copy_gbps" in measured
    if not cached:
        measured = measure(progress)
        gpus[key] = measured
        with contextlib.suppress(
            OSError
        ):  # a read-only data dir costs a re-measurement next time, nothing else
            store.write_json(CACHE_FILE, {"version": 1, "gpus": gpus})
    return {
        "gpu": name,
        "key": key,
        "measured": measured,
        "datasheet": datasheet(name),
        "cached": cached,
        "file": str(store.data_dir() / CACHE_FILE),
    }
