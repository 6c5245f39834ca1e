"""Make the interpreter usable on a machine with no GPU driver at all.

Triton's interpreter still asks `triton.runtime.driver.active` for a device (the official tutorial's
`DEVICE = triton.runtime.driver.active.get_active_torch_device()`) and for a benchmarker (`@triton.autotune`
with more than one config). With no GPU driver both raise "0 active drivers". We install a small CPU stand-in:
the device is the CPU, and the benchmarker times with the host clock — good enough to *choose* a config on
the interpreter, and never reported as GPU timing (bench says so).
"""

from __future__ import annotations

import statistics
import time


class CpuInterpreterDriver:
    """The parts of triton's DriverBase that the interpreter path touches."""

    backend = "cpu-interpreter"

    def is_active(self) -> bool:
        return True

    def get_active_torch_device(self):
        import torch

        return torch.device("cpu")

    def get_current_device(self) -> int:
        return 0

    def set_current_device(self, device) -> None:
        pass

    def get_current_stream(self, device=None) -> int:
        return 0

    def get_device_interface(self):
        import torch

        return torch.cpu

    def get_current_target(self):
        return None

    def get_benchmarker(self):
        return host_clock_bench

    def get_empty_cache_for_benchmark(self):
        import torch

        return torch.empty(1, dtype=torch.int8)

    def clear_cache(self, cache) -> None:
        pass


def host_clock_bench(fn, warmup=1, rep=3, grad_to_none=None, quantiles=None, return_mode="mean", **_):
    """A do_bench stand-in: a few host-clock runs (interpreter speed, not GPU speed)."""
    fn()
    times = []
    for _ in range(max(1, min(int(rep) if isinstance(rep, int) else 3, 5))):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    if quantiles:
        ordered = sorted(times)
        return [ordered[min(len(ordered) - 1, int(q * len(ordered)))] for q in quantiles]
    return statistics.median(times) if return_mode == "median" else statistics.fmean(times)


def _scalar_index(self):
    return int(self.handle.data.item())  # size-1 arrays of any rank; a block still raises, as it should


def repair_scalar_index() -> bool:
    """Triton's interpreter (3.6 and older) turns a scalar into a Python int with `int(ndarray_of_shape_(1,))`,
    which numpy >= 2.4 refuses ("only 0-dimensional arrays can be converted to Python scalars") — so every
    `range(0, K, BLOCK_K)` loop breaks. Wrap the interpreter's per-launch patch of `tl.tensor` so `__index__`
    uses `.item()`. The learner's code and the installed Triton are unchanged; newer Tritons already do this.
    Idempotent; returns whether the repair is in place."""
    try:
        from triton.runtime import interpreter
    except Exception:
        return False
    original = getattr(interpreter, "_patch_lang_tensor", None)
    if original is None:
        return False
    if getattr(original, "_tritonlab_repaired", False):
        return True

    def patch_lang_tensor(tensor, *args, **kwargs):
        result = original(tensor, *args, **kwargs)
        scope = args[0] if args else kwargs.get("scope")
        if scope is not None and hasattr(scope, "set_attr"):
            scope.set_attr(tensor, "__index__", _scalar_index)
        else:  # older interpreters patch the class directly
            tensor.__index__ = _scalar_index
        return result

    patch_lang_tensor._tritonlab_repaired = True
    interpreter._patch_lang_tensor = patch_lang_tensor
    return True


def repair_bf16_dot() -> bool:
    """Triton's interpreter (3.9 and older) multiplies bfloat16 dot operands as their raw uint16 bit patterns
    (numpy has no bfloat16), so every `tl.dot` on bf16 tiles returns garbage of order 1e10 — lesson 11's attention
    in bf16 could never pass. Widen bf16 operands to float32 first (exact), as the tensor cores do before
    accumulating. Idempotent; returns whether the repair is in place."""
    try:
        import numpy as np
        import triton.language as tl
        from triton.runtime import interpreter
    except Exception:
        return False
    builder = getattr(interpreter, "InterpreterBuilder", None)
    original = getattr(builder, "create_dot", None)
    widen = getattr(interpreter, "_convert_float", None)
    if original is None or widen is None:
        return False
    if getattr(original, "_tritonlab_repaired", False):
        return True

    def create_dot(self, a, b, d, *args, **kwargs):
        if a.dtype.scalar == tl.bfloat16 or b.dtype.scalar == tl.bfloat16:
            def as_f32(h):
                if h.dtype.scalar != tl.bfloat16:
                    return h
                data = widen(h.data, tl.bfloat16, tl.float32, None).view(np.float32)
                return interpreter.TensorHandle(data, tl.float32)
            a, b = as_f32(a), as_f32(b)
        return original(self, a, b, d, *args, **kwargs)

    create_dot._tritonlab_repaired = True
    builder.create_dot = create_dot
    return True


def install_if_needed() -> bool:
    """Install the CPU stand-in when triton has no active driver. Returns True when installed."""
    try:
        from triton.runtime import driver
    except Exception:
        return False
    try:
        driver.active  # noqa: B018 - probing: raises when no GPU driver exists
        return False
    except Exception:
        pass
    try:
        driver.set_active(CpuInterpreterDriver())
        return True
    except Exception:
        return False
