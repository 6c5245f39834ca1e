"""Launch tracking on both backends: every launch of a @triton.jit kernel (direct, autotuned, heuristics,
launch-by-lambda, or a compiled kernel after `warmup`) with its grid, block meta-parameters, knobs and tensor
pointers."""

from __future__ import annotations

import contextlib
import inspect
import re
from collections.abc import Iterator
from typing import Any

from tritonlab.engine import op_launches

from .hooks import _evaluate_grid, _kernel_file, _kernel_name, _Patches

# ----------------------------------------------------------------------------------------------------------
# Launch tracking (both backends)

_launch_sinks: list[list] = []
_launch_patches: _Patches | None = None
_phase: list[str] = ["forward"]  # gradient mode marks the launches made inside .backward()
# while hold_forward_tensors() stands: the tensor arguments of forward-phase launches, kept alive so that no
# later launch of the call can be handed new memory at their addresses (each pointer names one tensor)
_held: list[list] = []


@contextlib.contextmanager
def hold_forward_tensors() -> Iterator[list]:
    """Keep the tensors every forward-phase launch is handed alive until the block ends (gradient mode:
    whether a backward kernel is handed what the forward stored, by pointer)."""
    held: list = []
    _held.append(held)
    try:
        yield held
    finally:
        _held.remove(held)


@contextlib.contextmanager
def phase(name: str) -> Iterator[None]:
    """Launches recorded inside carry `phase = name` (outputs.Plan.wrap: "backward")."""
    _phase.append(name)
    try:
        yield
    finally:
        _phase.pop()


def _arg_names(fn: Any) -> list[str]:
    names = getattr(fn, "arg_names", None)
    if names:
        return list(names)
    try:
        return list(inspect.signature(getattr(fn, "fn", fn)).parameters)
    except (TypeError, ValueError):
        return []


def _record_launch(fn: Any, grid: Any, args: tuple, kwargs: dict) -> None:
    if not _launch_sinks:
        return
    named = dict(
        zip(_arg_names(fn), args, strict=False)
    )  # BLOCK_SIZE passed by position counts as well as by keyword
    named.update(kwargs)
    record: dict[str, Any] = {
        "kernel": _kernel_name(fn),
        "file": _kernel_file(fn),
        "grid": _evaluate_grid(fn, grid, args, kwargs),
        "phase": _phase[-1],
        # block-size meta-parameters, so a report can tell "too few programs" from "each wrote too little"
        "meta": {k: v for k, v in named.items() if k.startswith("BLOCK") and isinstance(v, int)},
        # launch knobs, so a contract check can tell a sweep that reached the launch from one that did not
        "knobs": {k: named[k] for k in _KNOBS if isinstance(named.get(k), int)},
        # where each tensor argument starts: a contract check asks whether an input's own storage reached the
        # kernel, or only a copy the wrapper made (x.contiguous() doing the strided job)
        "ptrs": _tensor_ptrs(args, kwargs),
        # a grid function (lambda meta: ...) gets the launch's block sizes; how many program_id axes the
        # kernel reads: a grid short along axis 1 means something else for a kernel that never reads axis 1
        "grid_fn": callable(grid),
        "pid_axes": _pid_axes(fn),
    }
    if record["grid"] is not None:
        record["grid"] = list(record["grid"])
    inside = op_launches.context()  # None outside any torch.library operator's body
    if inside is not None:
        # inside an operator: its name, whether the launch went through wrap_triton, and if not, the frames
        # from here out to the operator's body (the learner's launch line is among them)
        record["op"] = inside["op"]
        record["wrapped"] = inside["wrapped"]
        record["frames"] = inside["frames"]
    if _held and _phase[-1] == "forward":
        tensors = [v for v in map(tensor_of, list(args) + list(kwargs.values())) if hasattr(v, "data_ptr")]
        for held in _held:
            held.extend(tensors)
    for sink in _launch_sinks:
        sink.append(dict(record))


_KNOBS = ("num_warps", "num_stages", "num_ctas")
_PID_AXIS = re.compile(r"program_id\(\s*(?:axis\s*=\s*)?([0-2])\s*\)")


def _pid_axes(fn: Any) -> int | None:
    """1 + the highest tl.program_id axis the kernel's source reads (None: no source to read)."""
    source = getattr(fn, "src", None)
    code = None
    if not isinstance(source, str):
        code = getattr(getattr(fn, "fn", fn), "__code__", None)
        if code is not None and code in _PID_AXES:  # inspect.getsource reads the file again: ~4 ms a launch
            return _PID_AXES[code]
        try:
            source = inspect.getsource(getattr(fn, "fn", fn))
        except (TypeError, OSError):
            return None
    axes = [int(a) for a in _PID_AXIS.findall(source)]
    found = max(axes) + 1 if axes else 1
    if code is not None:
        if len(_PID_AXES) > 64:
            _PID_AXES.clear()
        _PID_AXES[code] = found
    return found


#: a kernel function's code -> its `_pid_axes` (the code object is the function as it was read)
_PID_AXES: dict[Any, int] = {}


def tensor_of(value: Any) -> Any:
    """The tensor a kernel argument carries: itself, or the `.base` of a host-side tensor descriptor
    (`triton.tools.tensor_descriptor.TensorDescriptor.from_tensor(c, ...)`): the output then reaches the
    kernel inside the descriptor, and a check that looked at tensors alone never saw it."""
    base = getattr(value, "base", None)
    if hasattr(value, "block_shape") and hasattr(base, "data_ptr") and hasattr(base, "untyped_storage"):
        return base
    return value


def _tensor_ptrs(args: tuple, kwargs: dict) -> list[int]:
    ptrs = []
    for value in map(tensor_of, list(args) + list(kwargs.values())):
        data_ptr = getattr(value, "data_ptr", None)
        if callable(data_ptr) and hasattr(value, "shape"):
            with contextlib.suppress(Exception):  # a meta tensor or a foreign object
                ptrs.append(int(data_ptr()))
    return ptrs


def _compiled_fn(kernel: Any) -> Any:
    """The @triton.jit function a CompiledKernel was compiled from, or None."""
    return getattr(getattr(kernel, "src", None), "fn", None)


def watch_kernel_runs(before: Any, after: Any = None) -> _Patches:
    """Every kernel run while the returned patches stand — a JITFunction's `run`, the interpreter's
    GridExecutor, a compiled kernel's `k[grid](...)`; recorded or not (an autotuner's timing runs too) — calls
    `before(fn, args, kwargs, warmup)` first (`fn`: the @triton.jit function, or None) and `after()` when it
    ends, also when it raises. The one place that wraps these three entry points for a watch that must see a
    kernel before it runs (integrity's launch check, torch_work's byte watch); `restore()` the patches."""
    patches = _Patches()

    def around(fn: Any, args: tuple, kwargs: dict, warmup: bool, go: Any) -> Any:
        before(fn, args, kwargs, warmup)
        try:
            return go()
        finally:
            if after is not None:
                after()

    with contextlib.suppress(ImportError):
        from triton.runtime.jit import JITFunction

        run = JITFunction.run

        def jit_run(self, *args, **kwargs):
            warmup = bool(kwargs.get("warmup", False))
            return around(self, args, kwargs, warmup, lambda: run(self, *args, **kwargs))

        patches.set(JITFunction, "run", jit_run)
    with contextlib.suppress(ImportError):
        from triton.runtime import interpreter

        call = interpreter.GridExecutor.__call__

        def interpreted(self, *args, **kwargs):
            warmup = bool(kwargs.get("warmup", False))
            return around(self.fn, args, kwargs, warmup, lambda: call(self, *args, **kwargs))

        patches.set(interpreter.GridExecutor, "__call__", interpreted)
    with contextlib.suppress(ImportError):
        from triton.compiler.compiler import CompiledKernel

        getitem = CompiledKernel.__getitem__

        def compiled(self, grid):
            runner = getitem(self, grid)

            def launch(*args, **kwargs):
                return around(_compiled_fn(self), args, kwargs, False, lambda: runner(*args, **kwargs))

            return launch

        patches.set(CompiledKernel, "__getitem__", compiled)
    return patches


def _compiled_launch(kernel: Any, grid: Any, args: tuple) -> None:
    """A launch of a CompiledKernel (`k = kernel.warmup(...)`, then `k[grid](...)`, as the persistent softmax
    tutorial does) goes around JITFunction.run: record it under the @triton.jit function that compiled it."""
    fn = _compiled_fn(kernel)
    if fn is None:
        return
    names = list(getattr(fn, "arg_names", None) or [])
    named = dict(zip(names, args, strict=False))
    metadata = getattr(kernel, "metadata", None)
    for knob in _KNOBS:
        value = getattr(metadata, knob, None)
        if isinstance(value, int):
            named.setdefault(knob, value)
    _record_launch(fn, grid, (), named)


def _install_launch_hooks() -> _Patches:
    patches = _Patches()
    try:
        from triton.compiler.compiler import CompiledKernel

        original_getitem = CompiledKernel.__getitem__

        def getitem(self, grid):
            runner = original_getitem(self, grid)

            def recorded(*args, **kwargs):
                _compiled_launch(self, grid, args)
                return runner(*args, **kwargs)

            return recorded

        patches.set(CompiledKernel, "__getitem__", getitem)
    except Exception:  # noqa: BLE001
        pass
    try:
        from triton.runtime.jit import JITFunction

        original_run = JITFunction.run

        def run(self, *args, grid, warmup, **kwargs):
            if not warmup:
                _record_launch(self, grid, args, kwargs)
            return original_run(self, *args, grid=grid, warmup=warmup, **kwargs)

        patches.set(JITFunction, "run", run)
    except Exception:  # noqa: BLE001
        pass
    try:
        from triton.runtime import interpreter

        original_call = interpreter.GridExecutor.__call__

        def call(self, *args, **kwargs):
            if not kwargs.get("warmup", False):
                _record_launch(self.fn, self.grid, args, kwargs)
            return original_call(self, *args, **kwargs)

        patches.set(interpreter.GridExecutor, "__call__", call)
    except Exception:  # noqa: BLE001
        pass
    return patches


@contextlib.contextmanager
def unrecorded() -> Iterator[None]:
    """Launches inside are not recorded (the lab's own runs of the learner's kernel: the autotuner's timing
    runs in a pinned case), so the grid and launch checks read the learner's launch alone."""
    stashed = list(_launch_sinks)
    _launch_sinks.clear()
    try:
        yield
    finally:
        _launch_sinks[:0] = stashed


@contextlib.contextmanager
def launch_only() -> Iterator[None]:
    """Launches inside are recorded and not run, interpreted or compiled (nor even compiled): the wrapper's
    choices (grid, BLOCK meta-parameters) at a size the interpreter cannot run in time, or whose block a GPU
    may not finish compiling in time (verify's launch-only call at a GPU case's size). Enter it inside
    track_launches, whose sinks receive the records."""
    from triton.runtime.jit import JITFunction

    def call(executor, *args, **kwargs):
        if not kwargs.get("warmup", False):
            _record_launch(executor.fn, executor.grid, args, kwargs)

    def run(self, *args, grid, warmup, **kwargs):
        if not warmup:
            _record_launch(self, grid, args, kwargs)
        return None

    patches = _Patches()
    try:
        from triton.runtime import interpreter

        patches.set(interpreter.GridExecutor, "__call__", call)
    except (ImportError, AttributeError):  # pragma: no cover - a Triton without the interpreter
        pass
    patches.set(JITFunction, "run", run)
    try:  # an autotuner "times" its configs on launches that never ran: its pick must not outlive the call
        from triton.runtime.autotuner import Autotuner

        tuned_run = Autotuner.run

        def forgetful(self, *args, **kwargs):
            kept = dict(self.cache)
            try:
                return tuned_run(self, *args, **kwargs)
            finally:
                self.cache.clear()
                self.cache.update(kept)

        patches.set(Autotuner, "run", forgetful)
    except (ImportError, AttributeError):  # pragma: no cover - a Triton without the autotuner
        pass
    try:
        yield
    finally:
        patches.restore()


@contextlib.contextmanager
def track_launches() -> Iterator[list[dict]]:
    """Collect one {kernel, file, grid} dict per kernel launch (compiled or interpreted, autotuned or not).

    Autotuned kernels are recorded once per benchmarked run, under the inner @triton.jit function's name
    and file.
    """
    global _launch_patches
    sink: list[dict] = []
    if not _launch_sinks:
        _launch_patches = _install_launch_hooks()
    _launch_sinks.append(sink)
    try:
        yield sink
    finally:
        _launch_sinks.remove(sink)
        if not _launch_sinks and _launch_patches is not None:
            _launch_patches.restore()
            _launch_patches = None
