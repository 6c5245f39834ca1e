"""Make the interpreter usable on a machine with no GPU driver at all.

Triton's interpreter still asks `triton.runtime.driver.active` for a device (the official tutorial's
`DEVICE = triton.runtime.driver.active.get_active_torch_device()`) and for a benchmarker (`@triton.autotune`
with more than one config). With no GPU driver both raise "0 active drivers". We install a small CPU stand-in:
the device is the CPU, and the benchmarker times with the host clock — good enough to *choose* a config on
the interpreter, and never reported as GPU timing (bench says so).
"""

from __future__ import annotations

import contextlib
import dis
import functools
import os
import statistics
import sys
import time
import types
from typing import Any


class NeedsGpu(RuntimeError):
    """Learner code asked the driver for something only a GPU has (the lab words it: cause "needs-gpu")."""


class _NoDeviceUtils:
    def __getattr__(self, name: str):
        raise NeedsGpu(
            f"triton.runtime.driver.active.utils.{name} asks a GPU for its properties, and Triton's CPU "
            "interpreter has no GPU behind it"
        )


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
        """A CUDA-like target (sm_80, warp 32): the official tutorials' `is_cuda()` asks for `.backend` at
        import and picks their CUDA configs; None made correct tutorial code crash inside this stand-in."""
        try:
            from triton.backends.compiler import GPUTarget
        except ImportError:  # pragma: no cover - every Triton the lab supports has it
            return None
        return GPUTarget("cuda", 80, 32)

    @property
    def utils(self):
        """`driver.active.utils.get_device_properties(...)` (SM count, registers, shared memory) has no GPU
        to ask here: a clear error naming that, not an AttributeError about this stand-in."""
        return _NoDeviceUtils()

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
    """Triton's interpreter (3.6 and older) turns a scalar into a Python int with
    `int(ndarray_of_shape_(1,))`, which numpy >= 2.4 refuses ("only 0-dimensional arrays can be converted to
    Python scalars") — so every `range(0, K, BLOCK_K)` loop breaks. Wrap the interpreter's per-launch patch of
    `tl.tensor` so `__index__` uses `.item()`. The learner's code and the installed Triton are unchanged;
    newer Tritons already do this. Idempotent; returns whether the repair is in place."""
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

    patch_lang_tensor._tritonlab_repaired = True  # type: ignore[attr-defined]  # a mark on the function
    interpreter._patch_lang_tensor = patch_lang_tensor
    return True


def _nvidia_min_dot_size(lhs_type, rhs_type) -> tuple[int, int, int]:
    """NVIDIA's smallest tl.dot (M, N, K) by operand width, as Triton's CUDA backend states it (its
    `min_dot_size`): K >= 16 for 16-bit operands, 8 for 32-bit, 32 for 8-bit, 4 for 64-bit."""
    bits = lhs_type.scalar.primitive_bitwidth
    return (1, 1, {8: 32, 32: 8, 64: 4}.get(bits, 16))


def gpu_dot_sizes() -> bool:
    """The interpreter accepts a tl.dot of any size (its min_dot_size is (1, 1, 1)); on an NVIDIA GPU the
    same kernel fails to compile ("Input shapes should have M >= 1, N >= 1 and K >= 16"), so a block sized
    from the input (BLOCK_N = next_power_of_2(seq) at seq = 1) passed here and failed there. Apply the
    GPU's rule on the interpreter too. Idempotent; returns whether it is in place."""
    try:
        from triton.runtime import interpreter
    except Exception:  # noqa: BLE001
        return False
    fns = getattr(getattr(interpreter, "interpreter_builder", None), "codegen_fns", None)
    if not isinstance(fns, dict) or "min_dot_size" not in fns:
        return False
    fns["min_dot_size"] = _nvidia_min_dot_size
    return True


def skip_discarded_overflow_checks() -> bool:
    """Triton's frontend sanitizes integer overflow: each `a + b`, `a - b`, `a * b` of int32 blocks is done
    again in int64 and compared with int32's range, and the result goes to `device_assert`, which drops it
    unless the kernel is compiled with debug on. The interpreter never is (its options have debug=False),
    so the check's work is thrown away: in 10/autotune-matmul's verify it was a third of the runner's time
    (128 x 256 offset tiles). Turn sanitizing off while debug is off; what the kernel computes is unchanged.
    Idempotent; returns whether it is in place."""
    try:
        import dataclasses

        from triton.runtime import interpreter
    except Exception:  # noqa: BLE001
        return False
    builder: Any = getattr(interpreter, "interpreter_builder", None)
    options: Any = getattr(builder, "options", None)
    if builder is None or isinstance(options, type) or not dataclasses.is_dataclass(options):
        return False
    if getattr(options, "debug", True):
        return False
    if getattr(options, "sanitize_overflow", None) is not False:
        try:
            builder.options = dataclasses.replace(options, sanitize_overflow=False)  # type: ignore[type-var]
        except (TypeError, ValueError):
            return False
    return True


def repair_int_masks() -> bool:
    """Triton's interpreter (3.9) can hold a boolean block as int32 numbers: `(cols < n_cols) & (row <
    n_rows)` with `row` a program's scalar gives an int1 block whose numpy data is int32, and its C++ load and
    store then refuse it ("mask has unsupported dtype") although the frontend typed it int1 and a GPU compiles
    it. A correct softmax-rows kernel failed (probe round 9, F1). Give the C++ side booleans, as a GPU runs
    it: a per-program scalar mask then switches a partial block off whole (the judge names it: masked-off with
    `per_program`). Idempotent; returns whether the repair is in place."""
    try:
        import numpy as np
        from triton.runtime import interpreter
    except Exception:  # noqa: BLE001
        return False
    builder = getattr(interpreter, "InterpreterBuilder", None)
    handle = getattr(interpreter, "TensorHandle", None)
    if builder is None or handle is None:
        return False

    def as_bool(mask):
        data = getattr(mask, "data", None)
        if (
            isinstance(data, np.ndarray)
            and data.ndim > 0
            and data.dtype != np.bool_
            and data.dtype.kind in "iu"
        ):
            return handle(data.astype(np.bool_), mask.dtype)
        return mask

    done = True
    for name, index in (("create_masked_load", 1), ("create_masked_store", 2), ("create_atomic_rmw", 3)):
        original = getattr(builder, name, None)
        if original is None:
            done = False
            continue
        if getattr(original, "_tritonlab_repaired", False):
            continue

        def repaired(self, *args, _original=original, _index=index, **kwargs):
            if len(args) > _index:
                args = (*args[:_index], as_bool(args[_index]), *args[_index + 1 :])
            elif "mask" in kwargs:
                kwargs["mask"] = as_bool(kwargs["mask"])
            return _original(self, *args, **kwargs)

        repaired._tritonlab_repaired = True  # type: ignore[attr-defined]  # a mark on the function
        setattr(builder, name, repaired)
    return done


def repair_bf16_dot() -> bool:
    """Triton's interpreter (3.9 and older) multiplies bfloat16 dot operands as their raw uint16 bit patterns
    (numpy has no bfloat16), so every `tl.dot` on bf16 tiles returns garbage of order 1e10 — lesson 11's
    attention in bf16 could never pass. Widen bf16 operands to float32 first (exact), as the tensor cores do
    before accumulating. Idempotent; returns whether the repair is in place."""
    try:
        import numpy as np
        import triton.language as tl
        from triton.runtime import interpreter
    except Exception:
        return False
    builder = getattr(interpreter, "InterpreterBuilder", None)
    original = getattr(builder, "create_dot", None)
    widen = getattr(interpreter, "_convert_float", None)
    if builder is None or original is None or widen is None:
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

    create_dot._tritonlab_repaired = True  # type: ignore[attr-defined]  # a mark on the function
    builder.create_dot = create_dot
    return True


def install_if_needed() -> bool:
    """Install the CPU stand-in when triton has no active driver. Returns True when installed.

    `TRITONLAB_INTERP_DRIVER=standin` installs it even where a GPU driver exists: a developer switch for the
    GPU box's interpreter, where every 10/autotune-matmul verify died of SIGINT (eighth session, cause not
    found) while the same verify passes on a CPU box (triton 3.6 and 3.9) — it tells the real driver's part
    apart (`scripts/gpu_next.sh n`)."""
    try:
        from triton.runtime import driver
    except Exception:
        return False
    if os.environ.get("TRITONLAB_INTERP_DRIVER") != "standin":
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


def host_clock_benchmarker() -> bool:
    """On a GPU machine the interpreter keeps the real driver, whose benchmarker times with CUDA events: an
    `@triton.autotune` kernel with several configs then initialised CUDA inside the forked interpreter runner
    ("Cannot re-initialize CUDA in forked subprocess", seen on the H200) — and CUDA events cannot time CPU
    work anyway. An interpreting process benchmarks with the host clock, like the stand-in driver. True when
    set."""
    try:
        from triton.runtime import driver

        active = driver.active
    except Exception:  # noqa: BLE001 - no driver: install_if_needed's stand-in already benchmarks on the host
        return False
    if isinstance(active, CpuInterpreterDriver):
        return False
    stand_in = CpuInterpreterDriver()
    try:
        active.get_benchmarker = stand_in.get_benchmarker
        active.get_empty_cache_for_benchmark = stand_in.get_empty_cache_for_benchmark
        active.clear_cache = stand_in.clear_cache
    except Exception:  # noqa: BLE001 - a driver object that refuses attributes: keep it
        return False
    return True


# ----------------------------------------------------------------------------------------------------------
# bfloat16 arithmetic on the interpreter

_BF16_FLOAT_UFUNCS = (
    "add",
    "subtract",
    "multiply",
    "divide",
    "fmod",
    "minimum",
    "maximum",
    "fmin",
    "fmax",
    "less",
    "greater",
    "less_equal",
    "greater_equal",
    "equal",
    "not_equal",
    "negative",
)


def bf16_bits_to_f32(bits):
    """bfloat16 is the top half of a float32: widen by shifting the stored uint16 into the high bits."""
    import numpy as np

    return (np.asarray(bits).astype(np.uint32) << np.uint32(16)).view(np.float32)


def f32_to_bf16_bits(values):
    """Round float32 to bfloat16 (round to nearest, ties to even, NaN kept quiet), as the GPU does."""
    import numpy as np

    values = np.asarray(values, dtype=np.float32)
    bits = values.view(np.uint32)
    rounded = (bits + np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1))) >> np.uint32(16)
    return np.where(np.isnan(values), np.uint16(0x7FC0), rounded.astype(np.uint16)).astype(np.uint16)


def repair_bf16_arithmetic() -> bool:
    """Triton's interpreter keeps bfloat16 values as their raw uint16 bits (numpy has no bfloat16) and then
    does arithmetic on those integers: a bf16 `x * x` of 30.875 gave 2.35e17, and every correct bf16 kernel
    failed. Wrap the interpreter's float ops, casts, fma and reductions so bf16 operands compute in float32
    and the result is rounded back to bf16 at each op (what the GPU does for bf16 arithmetic). The learner's
    code is unchanged. Idempotent; returns whether the repair is in place (False: this Triton has no such
    interpreter hooks)."""
    try:
        import numpy as np
        import triton.language as tl
        from triton.runtime import interpreter
    except Exception:  # noqa: BLE001 - no usable triton: nothing to repair
        return False
    builder_cls = getattr(interpreter, "InterpreterBuilder", None)
    reduce_cls = getattr(interpreter, "ReduceOps", None)
    handle_cls = getattr(interpreter, "TensorHandle", None)
    if builder_cls is None or handle_cls is None or not hasattr(builder_cls, "binary_op"):
        return False
    if getattr(builder_cls.binary_op, "_tritonlab_bf16", False):
        return True
    bf16 = tl.bfloat16
    float_ufuncs = {getattr(np, name) for name in _BF16_FLOAT_UFUNCS}

    def is_bf16(handle) -> bool:
        return getattr(getattr(handle, "dtype", None), "scalar", None) == bf16

    def finish(out, dtype):
        out = np.asarray(out)
        if out.dtype == np.bool_:
            return handle_cls(out, dtype)
        return handle_cls(f32_to_bf16_bits(out), bf16)

    original_binary = builder_cls.binary_op

    def binary_op(self, lhs, rhs, op):
        if op in float_ufuncs and is_bf16(lhs) and is_bf16(rhs):
            return finish(op(bf16_bits_to_f32(lhs.data), bf16_bits_to_f32(rhs.data)), lhs.dtype.scalar)
        return original_binary(self, lhs, rhs, op)

    original_unary = builder_cls.unary_op

    def unary_op(self, arg, op):
        if is_bf16(arg) and isinstance(op, np.ufunc) and op is not np.abs:
            return finish(op(bf16_bits_to_f32(arg.data)), arg.dtype.scalar)
        return original_unary(self, arg, op)

    original_fma = builder_cls.create_fma

    def create_fma(self, x, y, z):
        if is_bf16(z):
            exact = np.multiply(bf16_bits_to_f32(x.data), bf16_bits_to_f32(y.data), dtype=np.float64)
            return finish(np.add(exact, bf16_bits_to_f32(z.data), dtype=np.float64).astype(np.float32), bf16)
        return original_fma(self, x, y, z)

    original_cast = builder_cls.cast_impl

    def cast_impl(self, src, dst_type):
        src_bf16, dst_bf16 = src.dtype.scalar == bf16, dst_type.scalar == bf16
        if src_bf16 and dst_bf16:
            return handle_cls(src.data, bf16)
        # anything -> bf16 through float32, float32 too: the interpreter truncates it, a GPU rounds to nearest
        if dst_bf16:
            return handle_cls(f32_to_bf16_bits(np.asarray(src.data).astype(np.float32)), bf16)
        if src_bf16 and dst_type.scalar != tl.float32:  # bf16 -> ints, fp16, fp64: from its float32 value
            target = interpreter._get_np_dtype(dst_type)
            return handle_cls(bf16_bits_to_f32(src.data).astype(target), dst_type.scalar)
        return original_cast(self, src, dst_type)

    for name, value in (
        ("binary_op", binary_op),
        ("unary_op", unary_op),
        ("create_fma", create_fma),
        ("cast_impl", cast_impl),
    ):
        value._tritonlab_bf16 = True  # type: ignore[union-attr]  # a mark on the function
        setattr(builder_cls, name, value)
    if not hasattr(builder_cls, "get_bf16"):
        # Triton 3.6's interpreter has no bf16 constant: a bf16 `q * qk_scale` (a Python float scalar)
        # stopped with "'InterpreterBuilder' object has no attribute 'get_bf16'" (probe round 5 on the H200
        # box); a GPU rounds the constant to nearest (3.9's interpreter casts it: the cast above rounds too)
        def get_bf16(self, value):
            return handle_cls(f32_to_bf16_bits(np.array([value], dtype=np.float32)), bf16)

        builder_cls.get_bf16 = get_bf16
    # the create_* lambdas captured cast_impl by name through `self.`, so they pick up the wrapper

    if reduce_cls is not None and hasattr(reduce_cls, "sum") and hasattr(reduce_cls, "min_max"):
        original_sum, original_min_max = reduce_cls.sum, reduce_cls.min_max

        def as_f32(tensor):
            return tl.core.tensor(handle_cls(bf16_bits_to_f32(tensor.handle.data), tl.float32), tensor.type)

        def reduce_sum(self, input):
            if input.dtype.scalar == bf16 if hasattr(input.dtype, "scalar") else input.dtype == bf16:
                data = np.sum(bf16_bits_to_f32(input.handle.data), axis=self.axis, keepdims=self.keep_dims)
                return self.to_tensor(f32_to_bf16_bits(data), input.dtype)
            return original_sum(self, input)

        def min_max(self, input, val_reduce_op, idx_reduce_op=None):
            value = input[0] if isinstance(input, tuple) else input
            if getattr(value.dtype, "scalar", value.dtype) == bf16:
                floats = bf16_bits_to_f32(value.handle.data)
                val = idx = None
                if val_reduce_op:
                    val = self.to_tensor(
                        f32_to_bf16_bits(val_reduce_op(floats, axis=self.axis, keepdims=self.keep_dims)),
                        value.dtype,
                    )
                if idx_reduce_op:
                    idx = self.to_tensor(
                        idx_reduce_op(floats, axis=self.axis, keepdims=self.keep_dims), tl.int32
                    )
                if val is not None and idx is not None:
                    return val, idx
                return val if val is not None else idx
            return original_min_max(self, input, val_reduce_op, idx_reduce_op)

        reduce_cls.sum, reduce_cls.min_max = reduce_sum, min_max
    return True


def repair_atomics() -> bool:
    """Triton's interpreter hands atomics to C++ that knows no bfloat16 (a bf16 `tl.atomic_add`, valid Triton
    and run by every GPU since sm_80, stopped with «Unsupported data type»: probe round 15) and no float
    exchange (`tl.atomic_xchg` on float32). The interpreter runs one program at a time, so a lane-by-lane
    read-modify-write in lane order is atomic here: those two run that way, bf16 rounded at each add as the
    GPU's atomic does, and return the old values. Everything else keeps the interpreter's own atomics.
    Idempotent; returns whether the repair is in place."""
    try:
        import numpy as np
        import triton.language as tl
        from triton.runtime import interpreter
    except Exception:  # noqa: BLE001 - no usable triton: nothing to repair
        return False
    builder_cls = getattr(interpreter, "InterpreterBuilder", None)
    handle_cls = getattr(interpreter, "TensorHandle", None)
    ops = getattr(getattr(interpreter, "_ir", None), "ATOMIC_OP", None)
    if (
        builder_cls is None
        or handle_cls is None
        or ops is None
        or not hasattr(builder_cls, "create_atomic_rmw")
    ):
        return False
    if getattr(builder_cls.create_atomic_rmw, "_tritonlab_atomics", False):
        return True
    original = builder_cls.create_atomic_rmw

    def emulated(self, op, ptr, val, mask):
        dtype = val.dtype.scalar
        addresses = np.asarray(ptr.data)
        values = np.broadcast_to(np.asarray(val.data), addresses.shape)
        lanes = np.broadcast_to(np.asarray(mask.data, dtype=bool), addresses.shape)
        old = np.zeros(addresses.shape, dtype=values.dtype)
        on = np.ones(1, dtype=bool)
        # the C++ load and store themselves (their signatures hold across Triton versions; the bounds checker
        # already saw this atomic's addresses and mask)
        memory = interpreter._interpreter
        for index in np.ndindex(addresses.shape):
            if not lanes[index]:
                continue
            at = np.array([addresses[index]], dtype=addresses.dtype)
            now = memory.load(at, on, np.zeros(1, dtype=values.dtype), values.dtype)
            old[index] = now[0]
            new = np.array([values[index]], dtype=values.dtype)
            if op == ops.FADD:  # bf16 only: float32 sum of the two, rounded to nearest bf16
                new = f32_to_bf16_bits(bf16_bits_to_f32(now) + bf16_bits_to_f32(new))
            memory.store(at, new, on)
        return handle_cls(old, dtype)

    def create_atomic_rmw(self, rmwOp, ptr, val, mask, sem, scope):
        dtype = getattr(getattr(val, "dtype", None), "scalar", None)
        bf16_add = dtype == tl.bfloat16 and rmwOp == ops.FADD
        float_xchg = rmwOp == ops.XCHG and dtype is not None and dtype.is_floating()
        if bf16_add or float_xchg:
            return emulated(self, rmwOp, ptr, val, mask)
        return original(self, rmwOp, ptr, val, mask, sem, scope)

    create_atomic_rmw._tritonlab_atomics = True  # type: ignore[attr-defined]  # a mark on the function
    builder_cls.create_atomic_rmw = create_atomic_rmw
    return True


def prepare_interpreter() -> None:
    """Everything a process that runs kernels on the interpreter needs, in one place: the judge and the runner
    zygote both call it (a repair applied in one and forgotten in the other failed every bf16 attention
    case)."""
    install_if_needed()
    host_clock_benchmarker()
    repair_scalar_index()
    repair_bf16_dot()
    repair_atomics()
    repair_int_masks()
    gpu_dot_sizes()
    repair_wrap_triton()
    repair_libdevice()
    repair_range_loop_variable()
    check_loop_carried_types()
    repair_builtin_aliases()
    skip_discarded_overflow_checks()


class _GlobalsView:
    """A module's globals dict read and written as attributes, so the interpreter's patch scope
    (`set_attr`, undone by `restore`) can swap a global name for the length of one launch."""

    __slots__ = ("_names",)

    def __init__(self, names: dict):
        object.__setattr__(self, "_names", names)

    def __getattr__(self, name: str):
        try:
            return self._names[name]
        except KeyError:
            raise AttributeError(name) from None

    def __setattr__(self, name: str, value) -> None:
        self._names[name] = value

    def __delattr__(self, name: str) -> None:
        del self._names[name]


#: id of a triton.language builtin -> (module, attribute name); read once at start-up, before the lab's
#: memory checker wraps some of them (tl.make_tensor_descriptor) for its launches
_BUILTINS: dict[int, tuple] = {}


def _builtin_homes() -> dict[int, tuple]:
    if not _BUILTINS:
        import triton.language as tl

        for module in (tl, tl.math, tl.core):
            for attr, member in vars(module).items():
                if callable(member) and tl.core.is_builtin(member):
                    _BUILTINS.setdefault(id(member), (module, attr))
    return _BUILTINS


def global_facts(name: str, value: Any, annotations: Any) -> dict:
    """What the lab says of a module global a GPU compile refuses: its type, whether it is a plain function,
    its value when it is a number or string, and whether `NAME: tl.constexpr = v` annotated it (an annotation
    only: the value stays a float). One reading for the interpreter's refusal and the GPU's compile error."""
    note = annotations.get(name) if isinstance(annotations, dict) else None
    return {
        "name": name,
        "value_type": type(value).__name__,
        "plain_function": callable(value) and not isinstance(value, type),
        "value": repr(value)[:60] if isinstance(value, (bool, int, float, str)) else None,
        "annotated": note is not None and "constexpr" in (note if isinstance(note, str) else repr(note)),
    }


class GlobalNotConstexpr(NameError):
    """A kernel used a module global that a GPU compile refuses (Triton's code generator allows a kernel only
    globals that are constexpr, modules, JIT functions, Triton builtins, dtypes and a few Python builtins).
    The interpreter runs the kernel as Python and would read any global: the lab refuses what the GPU does."""

    def __init__(self, facts: dict):
        self.facts = facts  # global_facts
        name = facts["name"]
        super().__init__(
            f"Cannot access global variable {name} from within @jit'ed function (a GPU compile refuses it: "
            f"{name} is a {facts['value_type']}, not a tl.constexpr)"
        )
        self.name = name  # after NameError's own __init__, which sets `name` to None


class _RefusedGlobal:
    """Stands in for a refused global during one launch: any use of it raises GlobalNotConstexpr. Reading it
    alone does not (Triton's code generator refuses the lookup; an untaken constexpr branch is never looked
    up, and never runs on the interpreter either). Out of the launch (scope restored) it is inert."""

    __slots__ = ("_tl_name", "_tl_value", "_tl_names")

    def __init__(self, name: str, value: Any, names: dict):
        object.__setattr__(self, "_tl_name", name)
        object.__setattr__(self, "_tl_value", value)
        object.__setattr__(self, "_tl_names", names)

    def _tl_refuse(self, *args, **kwargs):
        annotations = self._tl_names.get("__annotations__")
        raise GlobalNotConstexpr(global_facts(self._tl_name, self._tl_value, annotations))

    def _tl_live(self) -> bool:
        return self._tl_names.get(self._tl_name) is self

    def __getattr__(self, attr: str):
        if self._tl_live():
            self._tl_refuse()
        raise AttributeError(attr)

    def __repr__(self) -> str:  # Triton's "cannot convert {x} to tensor" formats it: the refusal instead
        if self._tl_live():
            self._tl_refuse()
        return f"<global {self._tl_name}>"

    __str__ = __repr__

    def __format__(self, spec: str) -> str:
        return self.__repr__()

    def __hash__(self) -> int:
        return id(self)


for _dunder in [
    "__call__",
    "__getitem__",
    "__setitem__",
    "__bool__",
    "__index__",
    "__int__",
    "__float__",
    "__iter__",
    "__len__",
    "__contains__",
    "__neg__",
    "__pos__",
    "__abs__",
    "__invert__",
    "__eq__",
    "__ne__",
    "__lt__",
    "__le__",
    "__gt__",
    "__ge__",
    "__add__",
    "__radd__",
    "__sub__",
    "__rsub__",
    "__mul__",
    "__rmul__",
    "__truediv__",
    "__rtruediv__",
    "__floordiv__",
    "__rfloordiv__",
    "__mod__",
    "__rmod__",
    "__pow__",
    "__rpow__",
    "__matmul__",
    "__rmatmul__",
    "__and__",
    "__rand__",
    "__or__",
    "__ror__",
    "__xor__",
    "__rxor__",
    "__lshift__",
    "__rlshift__",
    "__rshift__",
    "__rrshift__",
]:
    setattr(_RefusedGlobal, _dunder, _RefusedGlobal._tl_refuse)


def _gpu_global_rule():
    """Triton's own test of a global a kernel may read (code_generator's global_lookup), as a function of
    (name, value) -> allowed; None where this Triton has no such rule."""
    try:
        import triton.language as tl
        from triton.compiler import code_generator as cg
        from triton.runtime import interpreter
        from triton.runtime import jit as triton_jit
    except Exception:
        return None
    builtin_names = set(getattr(getattr(cg, "CodeGenerator", None), "builtin_namespace", {}) or {})
    jit_types = tuple(
        t
        for t in (
            getattr(triton_jit, "JITCallable", None),
            getattr(triton_jit, "JITFunction", None),
            getattr(interpreter, "InterpretedFunction", None),
        )
        if isinstance(t, type)
    )
    is_constexpr = getattr(cg, "_is_constexpr", None)

    def allowed(name: str, value: Any) -> bool:
        if (
            name in builtin_names
            or value is None
            or isinstance(value, (types.ModuleType, tl.constexpr, tl.dtype))
        ):
            return True
        if jit_types and isinstance(value, jit_types):
            return True
        if getattr(value, "__triton_builtin__", False) or getattr(value, "__triton_aggregate__", False):
            return True
        home = getattr(value, "__module__", None)
        if isinstance(home, str) and home.startswith(
            ("triton.language", "triton.experimental.gluon.language")
        ):
            return True
        if isinstance(value, type) and issubclass(value, tuple) and hasattr(value, "_fields"):
            return True  # a namedtuple class
        return bool(callable(is_constexpr) and is_constexpr(value))

    return allowed


def _global_loads(fn) -> frozenset:
    """The globals `fn` reads (LOAD_GLOBAL, not attribute names: the grid function runs inside the launch and
    may read a global named like an attribute the kernel reads)."""
    code = getattr(fn, "__code__", None)
    return _loads_of(code) if isinstance(code, types.CodeType) else frozenset()


@functools.cache
def _injected_names() -> frozenset:
    """The names Triton's interpreter adds to a kernel's module (its rewritten kernels call
    `_InterpreterComparison`, `interpreter_semantic`, …): the interpreter's, never the learner's."""
    from triton.runtime import interpreter

    return frozenset(vars(interpreter))


@functools.cache
def _loads_of(code: types.CodeType) -> frozenset:
    names: set[str] = set()
    stack = [code]
    while stack:
        inner = stack.pop()
        names.update(
            i.argval for i in dis.get_instructions(inner) if i.opname in ("LOAD_GLOBAL", "LOAD_NAME")
        )
        stack.extend(c for c in inner.co_consts if isinstance(c, types.CodeType))
    # the lab's own loop check (check_loop_carried_types) is injected like the interpreter's names
    return frozenset(n for n in names - _injected_names() if not n.startswith("_tritonlab_"))


class UnsupportedConstruct(Exception):
    """A kernel (or a device function it calls) uses Python that Triton's code generator has no rule for
    (`break`, `continue`, `raise`, try, lambda, a dict …): a GPU compile stops with "unsupported AST node
    type". The interpreter runs the function as Python and would not notice."""

    def __init__(self, construct: str, filename: str, line: int, function: str):
        super().__init__(f"unsupported AST node type: {construct} (in {function}, which a GPU compiles)")
        self.construct, self.filename, self.lineno, self.function = construct, filename, line, function


@functools.cache
def _supported_nodes() -> frozenset:
    """The AST node types this Triton's code generator has a visit_ method for (3.6 has no NamedExpr)."""
    from triton.compiler.code_generator import CodeGenerator

    return frozenset(n[6:] for n in dir(CodeGenerator) if n.startswith("visit_"))


def _function_node(code: types.CodeType):
    """The learner's `def` that `code` was compiled from (the original or the interpreter's rewrite of it),
    in the file's tree as the source rules parse it (contracts.file_tree: once per version of the file)."""
    import ast

    from tritonlab.engine.contracts import file_tree

    tree = file_tree(code.co_filename)
    for node in ast.walk(tree) if tree is not None else ():
        if isinstance(node, ast.FunctionDef) and node.name == code.co_name:
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            if code.co_firstlineno in (node.lineno, first):
                return node
    return None


def _refused_construct(fn) -> tuple | None:
    """(construct, line) of the first statement or expression in `fn` that a GPU compile refuses, or None.
    An `if` whose test reads only tl.constexpr parameters is not read: the compiler skips the branch a launch
    does not take (a test with any other name may be a runtime one, and both its branches are compiled)."""
    code = getattr(fn, "__code__", None)
    return _construct_of(code) if isinstance(code, types.CodeType) else None


@functools.cache
def _construct_of(code: types.CodeType) -> tuple | None:
    import ast

    found = None
    try:
        node = _function_node(code)
        supported = _supported_nodes()
    except Exception:  # noqa: BLE001 - no source or no code generator: nothing to say
        node = None
    if node is not None:
        constexprs = {
            a.arg
            for a in node.args.args + node.args.kwonlyargs
            if a.annotation is not None and "constexpr" in ast.unparse(a.annotation)
        }
        stack = [(item, False) for item in reversed(node.body)]  # (node, inside a compiled loop's body)
        while stack and found is None:
            item, in_loop = stack.pop()
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue  # a nested def: not this check's to judge
            tested = (
                [n.id for n in ast.walk(item.test) if isinstance(n, ast.Name)]
                if isinstance(item, ast.If)
                else []
            )
            if tested and all(name in constexprs for name in tested):
                continue  # resolved at compile time (`if EARLY:`): the untaken branch is never compiled
            kind = type(item).__name__
            checked = isinstance(item, (ast.stmt, ast.expr)) and not isinstance(
                item, (ast.Starred, ast.FormattedValue)
            )
            if checked and kind not in supported:
                found = (kind, item.lineno)
                break
            if in_loop and isinstance(item, ast.Return):
                # the loop is an scf region with one block: "Cannot have `return` statements inside `while`
                # or `for` statements" (a return under an if), or an assertion about the block (a bare one)
                found = ("ReturnInLoop", item.lineno)
                break
            unrolled = isinstance(item, ast.For) and "static_range" in ast.unparse(item.iter)
            inner = in_loop or (isinstance(item, (ast.For, ast.While)) and not unrolled)
            stack.extend((child, inner) for child in reversed(list(ast.iter_child_nodes(item))))
    return found


def _kernel_min_max(python, builtin_name: str):
    """`min`/`max` as a kernel sees them: Triton's code generator maps the names to tl.core.builtin_min/max
    (elementwise tl.minimum/maximum on tensors). The interpreter ran Python's, which compares two blocks
    with `<`, takes any multi-element block as true and returns one argument whole: `max(x, 0.0)` stored
    zeros. Tensors go to Triton's builtin (interpreter semantics); plain numbers (a grid lambda's) to
    Python's."""

    def pick(*args, **kwargs):
        import triton.language as tl

        if any(isinstance(a, tl.core.base_value) for a in args):
            from triton.runtime.interpreter import interpreter_semantic

            kwargs["_semantic"] = interpreter_semantic
            return getattr(tl.core, builtin_name)(*args, **kwargs)
        return python(*args, **kwargs)

    pick.__name__ = python.__name__
    return pick


_GPU_BUILTINS = {"min": _kernel_min_max(min, "builtin_min"), "max": _kernel_min_max(max, "builtin_max")}


def repair_builtin_aliases() -> bool:
    """A `tl` builtin bound to a name of the learner's module (`make_descriptor = getattr(tl,
    "make_tensor_descriptor", None) or tl._experimental_make_tensor_descriptor`, `from triton.language import
    program_id`) compiles on a GPU: the code generator accepts any global that is a builtin. The interpreter
    patches the attributes of `tl` for a launch, not the learner's names, so such a call failed there with
    "Did you forget to add @triton.jit ?" (probe round 10). After the interpreter's own patch, each global of
    the kernel's module that is a builtin is pointed at the patched attribute it aliases, in the same scope,
    so it is undone with the rest. Idempotent; returns whether the repair is in place."""
    try:
        from triton.runtime import interpreter
    except Exception:
        return False
    original = getattr(interpreter, "_patch_lang", None)
    if original is None:
        return False
    if getattr(original, "_tritonlab_repaired", False):
        return True
    with contextlib.suppress(Exception):  # the builtins as Triton made them, before the lab wraps any
        _builtin_homes()
    original_scope_class = getattr(interpreter, "_LangPatchScope", None)

    allowed = _gpu_global_rule()
    interpreted_call = vars(getattr(interpreter, "InterpretedFunction", object)).get("__call__")
    nested_code = getattr(interpreted_call, "__code__", None)
    # ids of the globals patched since this launch began, and the scopes of its device-function calls
    launch: dict[str, Any] = {"patched": [], "nested": [], "set": set(), "scope": None}

    def patch_lang(fn, *args, **kwargs):
        refused = _refused_construct(fn)  # before anything is patched: the launch stops here
        if refused is not None:
            raise UnsupportedConstruct(refused[0], fn.__code__.co_filename, refused[1], fn.__code__.co_name)
        names = getattr(fn, "__globals__", None)
        nested = nested_code is not None and sys._getframe(1).f_code is nested_code
        if nested and isinstance(names, dict) and id(names) in launch["patched"]:
            # A device-function call (`tl.cdiv`, the learner's helper) inside a launch whose language is
            # already patched for this module: Triton patches it again on every call, finds no builtin
            # left to wrap and never restores that scope. Each repeat walked every member of tl, tl.core,
            # tl.math and tl.tensor (~2.5 ms; 1,750 calls in one autotune verify). An empty scope instead;
            # the globals this function reads are held to the GPU's rule in the launch's scope.
            if launch["scope"] is not None:
                with contextlib.suppress(Exception):
                    refuse_globals(launch["scope"], names, fn)
            return original_scope_class() if original_scope_class else original(fn, *args, **kwargs)
        scope = original(fn, *args, **kwargs)
        if not nested:  # a launch: its scope's restore ends it
            launch["patched"], launch["nested"], launch["set"] = [], [], set()
            launch["scope"] = scope if hasattr(scope, "set_attr") else None
            restore = getattr(scope, "restore", None)
            if callable(restore):

                def ended(restore=restore):
                    # Triton drops a device-function call's scope unrestored: what it patched (tl.core's
                    # builtins, for `tl.cdiv` of triton.language.standard) stayed patched after the launch.
                    # Undone here, last first, then the launch's own.
                    nested_scopes = launch["nested"]
                    launch["patched"], launch["nested"], launch["set"], launch["scope"] = [], [], set(), None
                    try:
                        for inner in reversed(nested_scopes):
                            inner.restore()
                    finally:
                        restore()

                with contextlib.suppress(Exception):
                    scope.restore = ended
        elif callable(getattr(scope, "restore", None)):
            launch["nested"].append(scope)
        if isinstance(names, dict):
            launch["patched"].append(id(names))
        if not isinstance(names, dict) or not hasattr(scope, "set_attr"):
            return scope
        with contextlib.suppress(Exception):  # a repair: never the reason a launch fails
            refuse_globals(scope, names, fn)  # first: the builtins' aliases below are the GPU's names
            homes = _builtin_homes()
            view = _GlobalsView(names)
            for name, value in list(names.items()):
                home = homes.get(id(value)) if callable(value) else None
                if home is None:
                    continue
                patched = getattr(home[0], home[1], value)
                if patched is not value:
                    scope.set_attr(view, name, patched)
                    launch["set"].add((id(names), name))
        return scope

    def refuse_globals(scope, names: dict, fn) -> None:
        """Swap, in `scope`, each global `fn` reads that a GPU compile refuses (a plain function, a number
        that is not a tl.constexpr) for a stand-in that refuses any use."""
        if allowed is None:
            return
        view = None
        for name in _global_loads(fn):
            key = (id(names), name)
            if key in launch["set"]:
                continue
            if name not in names:
                if name in _GPU_BUILTINS:  # Python's min/max where the compiler uses Triton's
                    launch["set"].add(key)
                    view = view or _GlobalsView(names)
                    scope.set_attr(view, name, _GPU_BUILTINS[name])
                continue
            launch["set"].add(key)
            value = names[name]
            if not allowed(name, value):
                view = view or _GlobalsView(names)
                scope.set_attr(view, name, _RefusedGlobal(name, value, names))

    patch_lang._tritonlab_repaired = True  # type: ignore[attr-defined]  # a mark on the function
    interpreter._patch_lang = patch_lang
    return True


def repair_wrap_triton() -> bool:
    """torch 2.11's `torch.library.wrap_triton` refuses what `triton.jit` returns under TRITON_INTERPRET=1 (an
    InterpretedFunction): "wrap_triton only works on functions annotated with triton.jit or triton.autotune",
    so lesson 12's torch.library op failed on the H200 box's interpreter (tenth session). torch 2.13 hands an
    interpreted kernel back unchanged, to be launched eagerly; this does the same where torch still refuses.
    Idempotent; returns whether wrap_triton is usable on interpreted kernels."""
    try:
        import torch.library as torch_library
        from torch._library import triton as torch_triton
        from triton.runtime.interpreter import InterpretedFunction
    except Exception:  # noqa: BLE001 - an older torch or triton: nothing to align
        return False
    original = getattr(torch_triton, "wrap_triton", None)
    if original is None:
        return False
    if getattr(original, "_tritonlab", False):
        return True

    def wrap_triton(triton_kernel, /):
        try:
            return original(triton_kernel)
        except RuntimeError:
            inner = triton_kernel
            for _ in range(4):  # @triton.autotune / @triton.heuristics around the interpreted kernel
                if isinstance(inner, InterpretedFunction):
                    return triton_kernel
                inner = getattr(inner, "fn", None)
            raise

    wrap_triton._tritonlab = True  # type: ignore[attr-defined]
    wrap_triton._tritonlab_original = original  # type: ignore[attr-defined]  # op_launches.install marks it
    wrap_triton.__doc__ = original.__doc__
    torch_triton.wrap_triton = wrap_triton
    if getattr(torch_library, "wrap_triton", None) is original:
        torch_library.wrap_triton = wrap_triton
    return True


def _round_half_away(x):
    import torch

    return torch.sign(x) * torch.floor(torch.abs(x) + 0.5)


def _libdevice_table() -> dict:
    """libdevice functions (their names without `__nv_` and the float `f`) computed by torch on the CPU."""
    import torch

    def fma(x, y, z):
        return (x.double() * y.double() + z.double()).to(z.dtype)

    return {
        **{
            name: getattr(torch, name)
            for name in [
                "tanh",
                "sinh",
                "cosh",
                "tan",
                "asin",
                "acos",
                "atan",
                "asinh",
                "acosh",
                "atanh",
                "exp",
                "exp2",
                "expm1",
                "log",
                "log2",
                "log10",
                "log1p",
                "sqrt",
                "rsqrt",
                "erf",
                "erfc",
                "erfinv",
                "floor",
                "ceil",
                "trunc",
                "sin",
                "cos",
                "atan2",
                "fmod",
                "fmin",
                "fmax",
                "hypot",
                "copysign",
                "isnan",
                "isinf",
                "signbit",
                "lgamma",
                "nextafter",
            ]
        },
        "exp10": lambda x: torch.pow(torch.full_like(x, 10.0), x),
        "cbrt": lambda x: torch.sign(x) * torch.abs(x) ** (1.0 / 3.0),
        "rint": torch.round,  # round half to even, as rint
        "nearbyint": torch.round,
        "round": _round_half_away,  # libdevice round: half away from zero
        "fabs": torch.abs,
        "abs": torch.abs,
        "pow": torch.pow,
        "powi": torch.pow,
        "fdim": lambda x, y: torch.clamp(x - y, min=0),
        "fma": fma,
        "rcp": torch.reciprocal,
        "saturate": lambda x: torch.clamp(x, 0.0, 1.0),
        "div_rn": torch.div,
        "fast_divide": torch.div,
    }


def repair_libdevice() -> bool:
    """`from triton.language.extra import libdevice` — the documented way to reach tanh, pow, erfinv, ... — is
    a stub module on the interpreter: every call returned None (`0.5 * x * (1.0 + libdevice.tanh(u))` stopped
    with "unsupported operand type(s) for +: 'float' and 'NoneType'", probe round 6), and the CUDA module
    behind it asks the builder for an external call the interpreter refuses. Route both through Triton's own
    dispatch (the same argument-type table as on a GPU, so an fp16 argument is refused as there) and compute
    the function with torch on the CPU. Idempotent; returns whether the repair is in place."""
    try:
        import importlib

        import numpy as np
        import torch
        from triton.language import core as tl_core
        from triton.runtime import interpreter

        cuda_libdevice = importlib.import_module("triton.language.extra.cuda.libdevice")
        stub = importlib.import_module("triton.language.extra.libdevice")
    except Exception:  # noqa: BLE001 - no CUDA libdevice in this Triton: nothing to route
        return False
    builder_cls, handle_cls = interpreter.InterpreterBuilder, interpreter.TensorHandle
    if getattr(builder_cls.create_extern_elementwise, "_tritonlab", False):
        return True
    table = _libdevice_table()

    def create_extern_elementwise(self, lib_name, lib_path, symbol, args, ret_type, is_pure):
        name = symbol[len("__nv_") :] if symbol.startswith("__nv_") else symbol
        name = name[len("fast_") :] if name.startswith("fast_") else name
        fn = table.get(name) or (table.get(name[:-1]) if name.endswith("f") else None)
        if fn is None:
            raise NotImplementedError(
                f"libdevice's {symbol} has no CPU version in the lab's interpreter: run this kernel on a GPU"
            )
        arrays = [np.ascontiguousarray(getattr(a, "data", a)) for a in args]
        out = fn(*[torch.from_numpy(a) if a.ndim else torch.tensor(a) for a in arrays])
        scalar = getattr(ret_type, "scalar", ret_type)
        return handle_cls(np.asarray(out.numpy()).astype(interpreter._get_np_dtype(scalar)), scalar)

    create_extern_elementwise._tritonlab = True  # type: ignore[attr-defined]
    builder_cls.create_extern_elementwise = create_extern_elementwise

    def routed(member):
        def call(*args, **kwargs):
            kwargs.pop("_semantic", None)
            return member(*args, **kwargs, _semantic=interpreter.interpreter_semantic)

        call.__name__ = getattr(member, "__name__", "libdevice")
        return call

    for name in dir(cuda_libdevice):
        member = getattr(cuda_libdevice, name)
        if callable(member) and tl_core.is_builtin(member):
            for module in (cuda_libdevice, stub):
                setattr(module, name, routed(member))
    return True


def repair_range_loop_variable() -> bool:
    """A compiled kernel's `for row in range(...)` / `tl.range(...)` counts with a tensor; the interpreter ran
    the loop in Python, so `row` was an int and `row.to(tl.int64)` stopped a correct kernel with "'int' object
    has no attribute 'to'" (probe round 6: a grid-stride loop over rows). The interpreter already rewrites
    each assignment into a tensor (`ASTTransformer.visit_Assign`); this rewrites the loop variable the same
    way at the top of the body. `tl.static_range` is left alone (its variable is a constexpr on a GPU too).
    Idempotent; returns whether the rewrite is in place."""
    try:
        import ast

        from triton.runtime import interpreter
    except Exception:  # noqa: BLE001 - no usable triton
        return False
    transformer = getattr(interpreter, "ASTTransformer", None)
    if transformer is None or not hasattr(transformer, "visit_Assign"):
        return False
    if getattr(transformer, "_tritonlab_for", False):
        return True

    def counts_with_tensor(call: ast.expr) -> bool:
        if not isinstance(call, ast.Call):
            return False
        func = call.func
        return (isinstance(func, ast.Name) and func.id == "range") or (
            isinstance(func, ast.Attribute) and func.attr == "range"
        )

    def visit_For(self, node):  # noqa: N802 - ast.NodeTransformer's naming
        node = self.generic_visit(node)
        if counts_with_tensor(node.iter) and isinstance(node.target, ast.Name):
            name = node.target.id
            as_tensor = ast.Assign(
                targets=[ast.Name(id=name, ctx=ast.Store())],
                value=ast.Call(
                    func=ast.Attribute(
                        value=ast.Name(id="interpreter_semantic", ctx=ast.Load()),
                        attr="to_tensor",
                        ctx=ast.Load(),
                    ),
                    args=[ast.Name(id=name, ctx=ast.Load()), ast.Constant(value=False)],
                    keywords=[],
                ),
            )
            node.body.insert(0, ast.copy_location(as_tensor, node))
        return node

    transformer.visit_For = visit_For
    transformer._tritonlab_for = True
    return True


# ----------------------------------------------------------------------------------------------------------
# loop-carried types: a GPU compile refuses a value whose type changes from one trip of a loop to the next


class LoopCarriedType(Exception):
    """A value carried from one trip of a compiled `for`/`while` loop to the next changed its Triton type
    (scalar to block, another shape or dtype): a GPU compile stops with "Loop-carried variable m has initial
    type fp32 but is re-assigned to <['64'], fp32> in loop!". The interpreter runs the loop in Python and
    would carry the new value on."""

    def __init__(self, facts: dict):
        self.facts = facts  # loop_facts
        super().__init__(
            f"Loop-carried variable {facts['name']} has initial type {facts['before']} but is re-assigned to "
            f"{facts['after']} in loop (a GPU compile refuses a loop-carried value whose type changes)"
        )


def parse_type(text: str) -> tuple[list[int], str]:
    """(shape, element type) of a Triton type as Triton prints it (3.6 and 3.9 alike): `fp32` -> ([], "fp32"),
    `<['64'], fp32>` -> ([64], "fp32"), `<['8'], pointer<fp16>>` -> ([8], "pointer<fp16>")."""
    text = text.strip()
    if text.startswith("<[") and text.endswith(">") and "], " in text:
        dims, element = text[2:-1].split("], ", 1)
        try:
            shape = [int(d.strip().strip("'\"")) for d in dims.split(",") if d.strip()]
        except ValueError:
            shape = []
        return shape, element
    return [], text


def _bound_names(target) -> list[str]:
    import ast

    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [name for elt in target.elts for name in _bound_names(elt)]
    return []


def _binders(stmts) -> list:
    """The assignments (`=`, `+=`, `x: T =`) among `stmts` and every statement nested in them (not in a nested
    def), with the names each binds."""
    import ast

    found: list = []
    stack = list(reversed(stmts))
    while stack:
        item = stack.pop()
        if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(item, ast.Assign):
            found.append((item, [n for t in item.targets for n in _bound_names(t)]))
        elif isinstance(item, (ast.AugAssign, ast.AnnAssign)):
            found.append((item, _bound_names(item.target)))
        if isinstance(item, ast.stmt):
            stack.extend(reversed([c for c in ast.iter_child_nodes(item) if isinstance(c, ast.stmt)]))
    return found


def _is_static_loop(node) -> bool:
    import ast

    if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Call):
        return False
    func = node.iter.func
    return (isinstance(func, ast.Name) and func.id == "static_range") or (
        isinstance(func, ast.Attribute) and func.attr == "static_range"
    )


def _is_compiled_loop(node) -> bool:
    """A loop a GPU compiles as an scf loop (its carried values keep one type): `while`, and `for` over
    `range`/`tl.range` (static_range is unrolled; any other iterator is refused by the compiler itself)."""
    import ast

    if isinstance(node, ast.While):
        return True
    if not isinstance(node, ast.For) or not isinstance(node.iter, ast.Call) or _is_static_loop(node):
        return False
    func = node.iter.func
    return (isinstance(func, ast.Name) and func.id == "range") or (
        isinstance(func, ast.Attribute) and func.attr == "range"
    )


def carried_names(func) -> dict[tuple[int, int], tuple[str, ...]]:
    """For each compiled loop of the `def` `func` ((line, column) -> names): the names a GPU compile carries
    through it — bound before the loop where the code generator still sees them (a parameter, an assignment
    above it in its own or an enclosing block, both branches of a runtime `if`, either branch of a constexpr
    one; not a name local to an earlier loop) and assigned again in its body. Python keeps every local of an
    earlier trip alive; a GPU compile does not, so only these are compared."""
    import ast

    constexprs = {
        a.arg
        for a in func.args.posonlyargs + func.args.args + func.args.kwonlyargs
        if a.annotation is not None and "constexpr" in ast.unparse(a.annotation)
    }
    plan: dict[tuple[int, int], tuple[str, ...]] = {}

    def walk(stmts, defined: set) -> set:
        defined = set(defined)
        for item in stmts:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if _is_compiled_loop(item):
                target = set(_bound_names(item.target)) if isinstance(item, ast.For) else set()
                assigned = {n for _, names in _binders(item.body) for n in names} - target
                plan[(item.lineno, item.col_offset)] = tuple(sorted(assigned & defined))
                walk(item.body, defined | target)  # what the body binds stays inside the loop
            elif isinstance(item, ast.For):  # static_range (unrolled: its binds stay) or a refused iterator
                defined = walk(item.body, defined | set(_bound_names(item.target)))
            elif isinstance(item, ast.If):
                then, other = walk(item.body, defined), walk(item.orelse, defined)
                tested = [n.id for n in ast.walk(item.test) if isinstance(n, ast.Name)]
                static = bool(tested) and all(n in constexprs for n in tested)
                defined = (then | other) if static else (then & other)
            elif isinstance(item, (ast.With, ast.Try)):
                defined = walk(item.body, defined)
            elif isinstance(item, ast.Assign):
                defined.update(n for t in item.targets for n in _bound_names(t))
            elif isinstance(item, (ast.AugAssign, ast.AnnAssign)):
                defined.update(_bound_names(item.target))
        return defined

    params = func.args.posonlyargs + func.args.args + func.args.kwonlyargs
    walk(func.body, {a.arg for a in params})
    return plan


def assignment_lines(loop, name: str) -> tuple[int | None, int | None, str | None]:
    """(the line that assigns `name` in `loop`'s body, the line where its new value is made, the name it came
    through): `m = m_new` after `m_new = tl.maximum(m, x)` is (that line, the maximum's line, "m_new"). The
    last assignment in the body when there are several."""
    import ast

    binders = _binders(loop.body)
    own = [node for node, names in binders if name in names]
    if not own:
        return None, None, None
    last = max(own, key=lambda n: n.lineno)
    if isinstance(last, ast.Assign) and isinstance(last.value, ast.Name) and last.value.id != name:
        via = last.value.id
        made = [node for node, names in binders if via in names and node.lineno < last.lineno]
        if made:
            return last.lineno, max(made, key=lambda n: n.lineno).lineno, via
    return last.lineno, last.lineno, None


def loop_at(tree, line: int | None):
    """The compiled `for`/`while` loop that starts at `line` of a parsed file, or None."""
    import ast

    if tree is None or line is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, (ast.For, ast.While)) and node.lineno == line:
            return node
    return None


def loop_facts(name: str, before: str, after: str, loop_line: int | None, tree=None, **extra) -> dict:
    """What the lab says of a loop-carried value whose type changed: the name, both types (as Triton prints
    them, and split into shape and element type), the loop's line and, when the file's tree is at hand, the
    line that re-assigns it and the line that made the new value. One reading for the interpreter's refusal
    and the GPU's compile error."""
    before_shape, before_dtype = parse_type(before)
    after_shape, after_dtype = parse_type(after)
    loop = loop_at(tree, loop_line)
    assign_line, made_line, via = assignment_lines(loop, name) if loop is not None else (None, None, None)
    return {
        "name": name,
        "before": before,
        "after": after,
        "before_shape": before_shape,
        "before_dtype": before_dtype,
        "after_shape": after_shape,
        "after_dtype": after_dtype,
        "loop_line": loop_line,
        "assign_line": assign_line,
        "made_line": made_line,
        "via": via,
        **extra,
    }


def _type_text(ty) -> str:
    return str(ty)


def _loop_enter(scope: dict, names: tuple) -> tuple:
    """Called by the rewritten kernel right before a compiled loop: the types of the carried names that hold a
    Triton tensor now (and where the loop is)."""
    import triton.language as tl

    frame = sys._getframe(1)
    held = tuple(
        (name, _type_text(value.type))
        for name in names
        if isinstance(value := scope.get(name), tl.core.tensor)
    )
    return frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name, held


def _loop_check(scope: dict, entered: tuple) -> None:
    """Called by the rewritten kernel at the end of each trip of a compiled loop: a carried name whose type
    is no longer the one it entered with stops the launch (LoopCarriedType), as a GPU compile stops."""
    import triton.language as tl

    filename, line, function, held = entered
    changed = []
    for name, before in held:
        value = scope.get(name)
        if isinstance(value, tl.core.tensor):
            after = _type_text(value.type)
            if after != before:
                changed.append((name, before, after))
    if not changed:
        return
    from tritonlab.engine.contracts import file_tree

    tree = None
    with contextlib.suppress(Exception):
        tree = file_tree(filename)
    said = [loop_facts(name, before, after, line, tree) for name, before, after in changed]
    # the change made first in the body is the cause; the others follow from it (l from a block m)
    said.sort(key=lambda f: (f["made_line"] is None, f["made_line"] or 0))
    first = said[0]
    first["also"] = [f["name"] for f in said[1:]]
    first["function"] = function
    first["filename"] = filename
    raise LoopCarriedType(first)


def check_loop_carried_types() -> bool:
    """Apply the GPU compiler's loop rule on the interpreter: a value carried through a compiled `for`/`while`
    loop keeps one Triton type (scalar or block, shape, dtype: `_verify_loop_carried_variable` in Triton's
    code generator, 3.6 and 3.9 alike). The interpreter runs the loop in Python and carried `m = tl.maximum(m,
    x)` from a scalar to a block; a per-lane running max reduced after the loop passed here and cannot compile
    on any GPU (probe round 15). The interpreter's rewrite of each kernel (its ASTTransformer) gets, around
    each compiled loop, a snapshot of the carried names' types before it (`carried_names`) and a comparison at
    the end of each trip. Idempotent; returns whether the check is in place."""
    try:
        import ast

        from triton.runtime import interpreter
    except Exception:  # noqa: BLE001 - no usable triton
        return False
    transformer = getattr(interpreter, "ASTTransformer", None)
    if transformer is None:
        return False
    if getattr(transformer, "_tritonlab_loops", False):
        return True
    interpreter._tritonlab_loop_enter = _loop_enter  # injected into the kernel's globals with the rest
    interpreter._tritonlab_loop_check = _loop_check

    def call(name: str, *args) -> ast.Call:
        return ast.Call(func=ast.Name(id=name, ctx=ast.Load()), args=list(args), keywords=[])

    def scope() -> ast.Call:
        return call("locals")

    def instrument(stmts: list, plan: dict) -> list:
        out: list = []
        for item in stmts:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append(item)
                continue
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(item, field, None)
                if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                    setattr(item, field, instrument(inner, plan))
            names = (
                plan.get((item.lineno, item.col_offset)) if isinstance(item, (ast.For, ast.While)) else None
            )
            if names:
                token = f"_tritonlab_loop_{item.lineno}_{item.col_offset}"
                enter = ast.Assign(
                    targets=[ast.Name(id=token, ctx=ast.Store())],
                    value=call(
                        "_tritonlab_loop_enter",
                        scope(),
                        ast.Tuple(elts=[ast.Constant(value=n) for n in names], ctx=ast.Load()),
                    ),
                )
                check = ast.Expr(
                    value=call("_tritonlab_loop_check", scope(), ast.Name(id=token, ctx=ast.Load()))
                )
                for made in (enter, check):  # at the loop's line: the frame's line names the loop
                    for sub in ast.walk(made):
                        if isinstance(sub, (ast.stmt, ast.expr)):
                            sub.lineno = sub.end_lineno = item.lineno
                            sub.col_offset = sub.end_col_offset = 0
                item.body.append(check)
                out.append(enter)
            out.append(item)
        return out

    def visit_Module(self, node):  # noqa: N802 - ast.NodeTransformer's naming
        plans = {}
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                with contextlib.suppress(Exception):  # a check: never the reason a rewrite fails
                    plans[id(item)] = carried_names(item)
        node = self.generic_visit(node)
        for item in node.body:
            if id(item) in plans and plans[id(item)]:
                item.body = instrument(item.body, plans[id(item)])
        return node

    transformer.visit_Module = visit_Module
    transformer._tritonlab_loops = True
    return True


_REVERSED: list[bool] = []  # non-empty while programs_in_reverse is in force


def reversed_order() -> bool:
    """Whether launches run their programs in reverse order now (programs_in_reverse)."""
    return bool(_REVERSED)


@contextlib.contextmanager
def programs_in_reverse():
    """Run every launch's programs in the reverse of the interpreter's order while inside: program (x, y, z)
    of a (gx, gy, gz) grid runs where (gx-1-x, gy-1-y, gz-1-z) would. The interpreter otherwise runs programs
    in one fixed order, so a result that depends on that order (atomics adding floats, one program reading
    another's store) never shows a second face here; on a GPU the order changes from run to run. Yields
    whether the hook is in (False: an interpreter this does not know, nothing changed)."""
    try:
        from triton.runtime import interpreter

        builder = interpreter.interpreter_builder
        original = builder.set_grid_idx
    except (ImportError, AttributeError):
        yield False
        return
    if not hasattr(builder, "grid_dim"):
        yield False
        return

    def set_grid_idx(x, y, z):
        gx, gy, gz = builder.grid_dim
        return original(gx - 1 - x, gy - 1 - y, gz - 1 - z)

    builder.set_grid_idx = set_grid_idx
    _REVERSED.append(True)
    try:
        yield True
    finally:
        _REVERSED.pop()
        if builder.__dict__.get("set_grid_idx") is set_grid_idx:
            del builder.set_grid_idx
        if builder.set_grid_idx is not original:  # it was an instance attribute before us: put it back
            builder.set_grid_idx = original
