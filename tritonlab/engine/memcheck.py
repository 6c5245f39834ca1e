"""Memory safety for learner kernels: interpreter bounds checks, launch tracking, poison, guard zones.

Only the worker process imports this module. Triton is imported lazily, so poison and guard helpers work
(and are testable) without it.

On the interpreter every masked-in lane of every load and store is checked against the tensors handed to
the kernel *before* the access happens: the stock interpreter dereferences raw addresses, and one bad
store corrupts the worker's heap (abort, segfault or hang). On a GPU there is no such hook, so tensors live
inside poisoned guard zones and a changed guard after the run is reported instead.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import inspect
import linecache
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

import numpy as np
import torch

__all__ = [
    "OutOfBounds",
    "find_oob",
    "InterpreterMemcheck",
    "MemcheckStats",
    "track_launches",
    "poison_value",
    "poison_bits",
    "poison_",
    "is_poison",
    "GuardedAllocator",
    "GuardedAllocation",
    "poisoned_allocations",
]

_MAX_OFFSETS = 8
_UINT64 = 1 << 64


# ----------------------------------------------------------------------------------------------------------
# The report


class OutOfBounds(Exception):
    """A load or store whose masked-in lanes fall outside every tensor handed to the kernel."""

    def __init__(
        self,
        *,
        access: str,
        kernel: str,
        arg: str | None,
        program_id: tuple[int, int, int],
        lanes: int,
        offsets: list[int],
        extent: int,
        file: str | None,
        line: int | None,
        reason: str = "past_end",
        op: str | None = None,
        numel: int | None = None,
        shape: tuple[int, ...] | None = None,
        strides: tuple[int, ...] | None = None,
        grid: tuple[int, int, int] | None = None,
        code: str | None = None,
        span: tuple[int, int] | None = None,
    ) -> None:
        self.access = access
        self.kernel = kernel
        self.arg = arg
        self.program_id = tuple(int(p) for p in program_id)
        self.lanes = int(lanes)
        self.offsets = [int(o) for o in offsets][:_MAX_OFFSETS]
        self.extent = int(extent)
        self.file = file
        self.line = line
        self.reason = reason
        self.op = op or access
        self.numel = self.extent if numel is None else int(numel)
        self.shape = tuple(shape) if shape is not None else None
        self.strides = tuple(strides) if strides is not None else None
        self.grid = tuple(grid) if grid is not None else None
        self.code = code
        self.span = (
            span if span is not None else ((min(self.offsets), max(self.offsets)) if self.offsets else None)
        )
        super().__init__(self.message)

    def __reduce__(self):
        return (_oob_from_dict, (self.to_dict(),))

    @property
    def program(self) -> str:
        """'program 3' for a 1-D grid, 'program (3, 1)' when the grid (or the id) uses more axes."""
        axes = 1
        if self.grid is not None:
            axes = max((i + 1 for i, g in enumerate(self.grid) if g > 1), default=1)
        axes = max(axes, max((i + 1 for i, p in enumerate(self.program_id) if p), default=1))
        if axes == 1:
            return f"program {self.program_id[0]}"
        return "program (" + ", ".join(str(p) for p in self.program_id[:axes]) + ")"

    @property
    def message(self) -> str:
        target = self.arg or "memory"
        verb = "load from" if self.access == "load" else "store to"
        if self.op not in ("load", "store"):
            verb = f"{self.op.replace('_', ' ')} on"
        lanes = f"{self.lanes} lane{'s' if self.lanes != 1 else ''}"
        if self.span is None:
            where = f"{lanes} outside every tensor argument"
        elif self.span[0] == self.span[1]:
            where = f"element offset {self.span[0]} ({lanes})"
        else:
            where = f"element offsets {self.span[0]}..{self.span[1]} ({lanes})"
        what = "the load" if self.access == "load" else "the store"
        if self.op not in ("load", "store"):
            what = "the atomic"
        if self.arg is None:
            return (
                f"{verb} an address outside every tensor argument in {self.program}: {lanes} — "
                f"check the pointer arithmetic"
            )
        if self.reason == "gap":
            view = f"shape {tuple(self.shape or ())}, strides {tuple(self.strides or ())}"
            return (
                f"{verb} {target} outside the view in {self.program}: {where} fall between the elements of a "
                f"strided view ({view}) — step through it with the tensor's strides"
            )
        if self.reason == "before_start":
            return (
                f"{verb} {target} out of bounds in {self.program}: {where}, before the start of the tensor — "
                f"check the offset arithmetic (negative offsets) or mask {what}"
            )
        size = f"the tensor has {self.numel} element{'' if self.numel == 1 else 's'}"
        if self.numel != self.extent:
            size = f"the view spans {self.extent} element{'' if self.extent == 1 else 's'} ({self.numel} in the view)"
        return f"{verb} {target} out of bounds in {self.program}: {where}, {size} — {self._mask_hint(what)}"

    def mask_facts(self) -> dict:
        """The learner's own words for the guard: the mask expression of the faulting line (None: no mask) and
        the index names its pointer is built from that the mask never mentions, with their axes."""
        return _mask_facts(self.code, self.file, self.line)

    def _mask_hint(self, what: str) -> str:
        facts = self.mask_facts()
        mask, unbounded = facts.get("mask"), facts.get("unbounded") or []
        if unbounded:
            names = " and ".join(f"{u['name']} (axis {u['axis']})" for u in unbounded)
            if mask:
                return f"the mask ({mask}) never bounds {names}: add a bound for it to the mask of {what}"
            return f"{what} has no mask: bound {names} (and every other index) with a mask"
        if mask:
            return f"the mask ({mask}) lets these lanes through: it must be False for every offset past the end"
        if facts.get("parsed"):
            return f"{what} has no mask: pass mask= with a bound for each index (e.g. offsets < n_elements)"
        return f"mask {what} (offsets < n_elements)"

    def to_dict(self) -> dict:
        return {
            "access": self.access,
            "op": self.op,
            "kernel": self.kernel,
            "arg": self.arg,
            "program_id": list(self.program_id),
            "grid": list(self.grid) if self.grid is not None else None,
            "lanes": self.lanes,
            "offsets": list(self.offsets),
            "span": list(self.span) if self.span is not None else None,
            "extent": self.extent,
            "numel": self.numel,
            "shape": list(self.shape) if self.shape is not None else None,
            "strides": list(self.strides) if self.strides is not None else None,
            "reason": self.reason,
            "file": self.file,
            "line": self.line,
            "code": self.code,
            **{k: v for k, v in self.mask_facts().items() if k != "parsed"},
            "message": self.message,
        }


_AXIS_PATTERNS = ((0, re.compile(r"(\w+)\s*\[\s*:\s*,\s*None\s*\]")), (1, re.compile(r"(\w+)\s*\[\s*None\s*,\s*:\s*\]")))


def _mask_facts(code: str | None, file: str | None, line: int | None) -> dict:
    """Read the faulting tl.load/tl.store call: its mask= text, and the 2D index names (x[:, None] is axis 0,
    x[None, :] axis 1) of its pointer — inline, or from the pointer variable's assignments above the line — that
    the mask does not mention. Best effort: {} when the line is not a plain call."""
    if not code:
        return {}
    try:
        tree = ast.parse(code.strip().rstrip(":"), mode="exec")
    except SyntaxError:
        return {}
    call = next((n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
                 and n.func.attr in ("load", "store", "atomic_add", "atomic_max", "atomic_min", "atomic_xchg")),
                None)
    if call is None or not call.args:
        return {}
    text = code.strip().rstrip(":")
    mask_node = next((k.value for k in call.keywords if k.arg == "mask"), None)
    if mask_node is None and call.func.attr == "store" and len(call.args) >= 3:
        mask_node = call.args[2]
    elif mask_node is None and call.func.attr == "load" and len(call.args) >= 2:
        mask_node = call.args[1]
    mask = ast.get_source_segment(text, mask_node) if mask_node is not None else None
    if isinstance(mask_node, ast.Name) and file and line:  # mask=mask: show what the learner assigned to it
        defined = _assignments(mask_node.id, file, line).strip()
        if defined:
            mask = f"{mask_node.id} = {defined}"
    pointer = ast.get_source_segment(text, call.args[0]) or ""
    source = pointer
    if isinstance(call.args[0], ast.Name) and file and line:
        source += " " + _assignments(call.args[0].id, file, line)
    axes: dict[str, int] = {}
    for axis, pattern in _AXIS_PATTERNS:
        for name in pattern.findall(source):
            axes.setdefault(name, axis)
    mentioned = set(re.findall(r"\w+", mask or ""))
    unbounded = [{"name": n, "axis": a} for n, a in axes.items() if n not in mentioned]
    return {"parsed": True, "mask": mask, "unbounded": unbounded}


def _assignments(name: str, file: str, line: int, lookback: int = 60) -> str:
    """The right-hand sides of `name = ...` / `name += ...` in the lines above `line` (same kernel, usually)."""
    pattern = re.compile(rf"^\s*{re.escape(name)}\s*(?:\+|-)?=\s*(.+)$")
    found = []
    for number in range(max(1, line - lookback), line):
        match = pattern.match(linecache.getline(file, number))
        if match:
            found.append(match.group(1))
    return " ".join(found)


def _oob_from_dict(d: dict) -> OutOfBounds:
    keys = (
        "access",
        "kernel",
        "arg",
        "lanes",
        "offsets",
        "extent",
        "file",
        "line",
        "reason",
        "op",
        "numel",
        "code",
    )
    kwargs = {k: d.get(k) for k in keys}
    kwargs["program_id"] = tuple(d.get("program_id") or (0, 0, 0))
    for k in ("shape", "strides", "grid", "span"):
        kwargs[k] = tuple(d[k]) if d.get(k) is not None else None
    return OutOfBounds(**kwargs)


def find_oob(exc: BaseException | None) -> OutOfBounds | None:
    """The OutOfBounds behind `exc`, following __cause__ and __context__ (the interpreter wraps errors)."""
    seen: set[int] = set()
    pending = [exc]
    while pending:
        e = pending.pop(0)
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, OutOfBounds):
            return e
        pending.extend([e.__cause__, e.__context__])
    return None


# ----------------------------------------------------------------------------------------------------------
# Patching helpers


class _Patches:
    """Attribute patches undone in reverse order; an instance attribute that shadowed nothing is deleted."""

    def __init__(self) -> None:
        self._undo: list[tuple[Any, str, bool, Any]] = []

    def set(self, obj: Any, name: str, value: Any) -> None:
        own = name in getattr(obj, "__dict__", {})
        old = obj.__dict__[name] if own else None
        self._undo.append((obj, name, own, old))
        setattr(obj, name, value)

    def restore(self) -> None:
        while self._undo:
            obj, name, own, old = self._undo.pop()
            try:
                if own:
                    setattr(obj, name, old)
                else:
                    delattr(obj, name)
            except Exception:  # noqa: BLE001 - restoring must never raise over the real error
                pass


def _interpret_mode() -> bool:
    try:
        from triton import knobs  # triton >= 3.4

        return bool(knobs.runtime.interpret)
    except Exception:  # noqa: BLE001
        return os.environ.get("TRITON_INTERPRET", "0").lower() in ("1", "true", "on", "yes")


def _kernel_file(fn: Any) -> str | None:
    fn = getattr(fn, "fn", fn)
    try:
        fn = inspect.unwrap(fn)
    except Exception:  # noqa: BLE001
        pass
    code = getattr(fn, "__code__", None)
    if code is not None:
        return code.co_filename
    try:
        return inspect.getsourcefile(fn)
    except Exception:  # noqa: BLE001
        return None


def _kernel_name(fn: Any) -> str:
    fn = getattr(fn, "fn", fn)
    return getattr(fn, "__name__", None) or type(fn).__name__


def _normalize_grid(grid: Any) -> tuple[int, int, int] | None:
    def as_int(g: Any) -> int:
        try:
            return int(g)
        except Exception:  # noqa: BLE001 - an interpreter tl.tensor: read its numpy payload
            return int(np.asarray(g.handle.data).reshape(-1)[0])

    try:
        dims = [as_int(g) for g in ((grid,) if isinstance(grid, int) else grid)]
    except Exception:  # noqa: BLE001
        return None
    if not 1 <= len(dims) <= 3:
        return None
    return tuple(dims + [1] * (3 - len(dims)))


def _evaluate_grid(fn: Any, grid: Any, args: tuple, kwargs: dict) -> tuple[int, int, int] | None:
    """The launch grid as the runtime will compute it, without side effects; None when it cannot be."""
    if not callable(grid):
        return _normalize_grid(grid)
    try:
        sig = inspect.signature(getattr(fn, "fn", fn))
        known = {k: v for k, v in kwargs.items() if k in sig.parameters}
        bound = sig.bind_partial(*args, **known)
        bound.apply_defaults()
        meta = {**kwargs, **bound.arguments}
        return _normalize_grid(grid(meta))
    except Exception:  # noqa: BLE001
        return None


def _same_file(a: str | None, b: str | None, cache: dict) -> bool:
    if not a or not b:
        return False
    if a == b:
        return True

    def norm(p: str) -> str:
        if p not in cache:
            cache[p] = os.path.normcase(os.path.realpath(p))
        return cache[p]

    return norm(a) == norm(b)


# ----------------------------------------------------------------------------------------------------------
# Launch tracking (both backends)

_launch_sinks: list[list] = []
_launch_patches: _Patches | None = None


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
    named = dict(zip(_arg_names(fn), args))  # BLOCK_SIZE passed by position counts as well as by keyword
    named.update(kwargs)
    record = {
        "kernel": _kernel_name(fn),
        "file": _kernel_file(fn),
        "grid": _evaluate_grid(fn, grid, args, kwargs),
        # block-size meta-parameters, so a report can tell "too few programs" from "each wrote too little"
        "meta": {k: v for k, v in named.items() if k.startswith("BLOCK") and isinstance(v, int)},
        # launch knobs, so a contract check can tell a sweep that reached the launch from one that did not
        "knobs": {k: named[k] for k in _KNOBS if isinstance(named.get(k), int)},
        # where each tensor argument starts: a contract check asks whether an input's own storage reached the
        # kernel, or only a copy the wrapper made (x.contiguous() doing the strided job)
        "ptrs": _tensor_ptrs(args, kwargs),
    }
    if record["grid"] is not None:
        record["grid"] = list(record["grid"])
    for sink in _launch_sinks:
        sink.append(dict(record))


_KNOBS = ("num_warps", "num_stages", "num_ctas")


def _tensor_ptrs(args: tuple, kwargs: dict) -> list[int]:
    ptrs = []
    for value in list(args) + list(kwargs.values()):
        data_ptr = getattr(value, "data_ptr", None)
        if callable(data_ptr) and hasattr(value, "shape"):
            try:
                ptrs.append(int(data_ptr()))
            except Exception:  # noqa: BLE001 - a meta tensor or a foreign object
                pass
    return ptrs


def _compiled_launch(kernel: Any, grid: Any, args: tuple) -> None:
    """A launch of a CompiledKernel (`k = kernel.warmup(...)`, then `k[grid](...)`, as the persistent softmax
    tutorial does) goes around JITFunction.run: record it under the @triton.jit function that compiled it."""
    fn = getattr(getattr(kernel, "src", None), "fn", None)
    if fn is None:
        return
    names = list(getattr(fn, "arg_names", None) or [])
    named = dict(zip(names, args))
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


# ----------------------------------------------------------------------------------------------------------
# Interpreter bounds checks


@dataclasses.dataclass
class _Region:
    """The bytes one tensor argument may touch: [lo, hi), plus the view geometry for gap checks."""

    name: str
    lo: int
    hi: int
    itemsize: int
    numel: int
    shape: tuple[int, ...]
    strides: tuple[int, ...]
    nested_dims: list[tuple[int, int]] | None  # (size, stride) outer→inner when the view has gaps to check

    @property
    def extent(self) -> int:
        return (self.hi - self.lo) // self.itemsize

    def contains(self, addrs: np.ndarray, nbytes: int) -> np.ndarray:
        if self.hi - self.lo < nbytes:
            return np.zeros(addrs.shape, dtype=bool)
        inside = (addrs >= np.uint64(self.lo)) & (addrs <= np.uint64(self.hi - nbytes))
        if self.nested_dims is not None and inside.any():
            idx = np.nonzero(inside)[0]
            inside[idx] = self._in_view((addrs[idx] - np.uint64(self.lo)).astype(np.int64) // self.itemsize)
        return inside

    def _in_view(self, elems: np.ndarray) -> np.ndarray:
        ok = np.ones(elems.shape, dtype=bool)
        rest = elems.copy()
        for size, stride in self.nested_dims or ():
            index = rest // stride
            ok &= index < size
            rest -= index * stride
        return ok & (rest == 0)


def _region_for(name: str, tensor: Any) -> _Region | None:
    base = getattr(tensor, "base", None) if not isinstance(tensor, torch.Tensor) else None
    t = base if isinstance(base, torch.Tensor) else tensor
    if not isinstance(t, torch.Tensor):
        return None
    try:
        itemsize = t.element_size()
        shape, strides = tuple(t.shape), tuple(t.stride())
        first = t.data_ptr()
    except Exception:  # noqa: BLE001
        return None
    numel = t.numel()
    if numel == 0:
        return _Region(name, first, first, itemsize, 0, shape, strides, None)
    low = sum((s - 1) * st for s, st in zip(shape, strides) if st < 0)
    high = sum((s - 1) * st for s, st in zip(shape, strides) if st > 0)
    span = high - low + 1
    lo = first + low * itemsize
    nested = None
    if span != numel and low == 0:
        dims = sorted(((s, st) for s, st in zip(shape, strides) if s > 1 and st > 0), key=lambda d: -d[1])
        if all(outer[1] >= inner[0] * inner[1] for outer, inner in zip(dims, dims[1:])):
            nested = dims
    return _Region(name, lo, lo + span * itemsize, itemsize, numel, shape, strides, nested)


def _collect_regions(names: list[str], args: tuple, kwargs: dict) -> list[_Region]:
    regions: list[_Region] = []

    def visit(name: str, value: Any) -> None:
        if isinstance(value, tuple) and not hasattr(value, "data_ptr"):
            for i, item in enumerate(value):
                visit(f"{name}[{i}]", item)
            return
        if hasattr(value, "data_ptr"):
            region = _region_for(name, value)
            if region is not None:
                regions.append(region)
            return
        base = getattr(value, "base", None)  # TensorDescriptor
        if base is not None and hasattr(base, "data_ptr"):
            visit(name, base)

    for i, value in enumerate(args):
        visit(names[i] if i < len(names) else f"arg{i}", value)
    for key, value in kwargs.items():
        visit(key, value)
    return regions


@dataclasses.dataclass
class MemcheckStats:
    bytes_loaded: int = 0
    bytes_stored: int = 0
    programs: int = 0
    launches: list[dict] = dataclasses.field(default_factory=list)

    def to_dict(self) -> dict:
        return dataclasses.asdict(self)


@dataclasses.dataclass
class _Launch:
    kernel: str
    file: str | None
    names: list[str]
    regions: list[_Region] = dataclasses.field(default_factory=list)
    checking: bool = True
    record: dict | None = None


def _element_bytes(handle: Any) -> int:
    dtype = getattr(handle, "dtype", None)
    while hasattr(dtype, "element_ty"):
        dtype = dtype.element_ty
    bits = getattr(dtype, "primitive_bitwidth", 8)
    return max(1, int(bits) // 8)


def _signed(addr: int) -> int:
    return addr - _UINT64 if addr >= 1 << 63 else addr


class InterpreterMemcheck:
    """Bounds-check every load and store of interpreted kernels while active.

    Use in a process where TRITON_INTERPRET=1 was set before triton was imported. When the interpreter
    cannot be hooked (unknown Triton version, compiled mode), `active` is False, `reason` says why, and
    nothing else changes.
    """

    def __init__(self, learner_file: str | None = None) -> None:
        self.learner_file = learner_file
        self.active = False
        self.reason: str | None = None
        self.stats = MemcheckStats()
        self._patches = _Patches()
        self._launches: list[_Launch] = []
        self._builder: Any = None
        self._nested = 0
        self._paths: dict = {}

    # -- context manager ------------------------------------------------------------------------------------

    def __enter__(self) -> InterpreterMemcheck:
        if not _interpret_mode():
            self.reason = "TRITON_INTERPRET is not set: kernels are compiled, not interpreted"
            return self
        from tritonlab.engine.interpreter_support import repair_bf16_arithmetic

        repair_bf16_arithmetic()  # idempotent; without it every bf16 kernel computes on raw bits here
        try:
            self._install()
            self.active = True
        except Exception as e:  # noqa: BLE001
            self._patches.restore()
            self.reason = f"cannot hook this Triton interpreter: {type(e).__name__}: {e}"
        return self

    def __exit__(self, *exc_info) -> None:
        self._patches.restore()
        self.active = False
        self._launches.clear()

    # -- hooks ----------------------------------------------------------------------------------------------

    def _install(self) -> None:
        from triton.runtime import interpreter

        builder = interpreter.interpreter_builder
        executor_cls = interpreter.GridExecutor
        for name in ("create_masked_load", "create_masked_store", "set_grid_idx", "set_grid_dim"):
            if not callable(getattr(builder, name, None)):
                raise AttributeError(f"InterpreterBuilder has no {name}")
        self._builder = builder
        memcheck = self

        original_call = executor_cls.__call__

        def call(executor, *args, **kwargs):
            fn = executor.fn
            names = list(getattr(executor, "arg_names", None) or inspect.signature(fn).parameters)
            launch = _Launch(kernel=_kernel_name(fn), file=_kernel_file(fn), names=names)
            launch.regions = _collect_regions(names, args, kwargs)
            if any(
                getattr(getattr(a, "device", None), "type", "cpu") != "cpu"
                for a in list(args) + list(kwargs.values())
                if hasattr(a, "data_ptr")
            ) and not hasattr(executor_cls, "_init_args_hst"):
                launch.checking = False  # device tensors are copied somewhere we cannot see
            memcheck._launches.append(launch)
            try:
                return original_call(executor, *args, **kwargs)
            except BaseException as e:
                oob = find_oob(e)
                if oob is not None and oob is not e:
                    raise oob.with_traceback(oob.__traceback__) from None
                raise
            finally:
                memcheck._launches.pop()

        self._patches.set(executor_cls, "__call__", call)

        if hasattr(executor_cls, "_init_args_hst"):
            original_init = executor_cls._init_args_hst

            def init_args_hst(executor, args_dev, kwargs):
                args_hst, kwargs_hst = original_init(executor, args_dev, kwargs)
                if memcheck._launches:
                    launch = memcheck._launches[-1]
                    launch.regions = _collect_regions(launch.names, tuple(args_hst), dict(kwargs_hst))
                return args_hst, kwargs_hst

            self._patches.set(executor_cls, "_init_args_hst", init_args_hst)

        def hook_access(name: str, access: str, ptr_pos: int, mask_pos: int | None):
            original = getattr(builder, name, None)
            if not callable(original):
                return

            def hooked(*args, **kwargs):
                if memcheck._nested:
                    return original(*args, **kwargs)
                try:
                    ptrs = args[ptr_pos]
                    mask = args[mask_pos] if mask_pos is not None and mask_pos < len(args) else None
                except IndexError:
                    return original(*args, **kwargs)
                try:
                    memcheck._check(name, access, ptrs, mask)
                except OutOfBounds:
                    raise
                except Exception as e:  # noqa: BLE001 - a checker bug must not break the learner's run
                    memcheck.reason = f"check skipped: {type(e).__name__}: {e}"
                memcheck._nested += 1
                try:
                    return original(*args, **kwargs)
                finally:
                    memcheck._nested -= 1

            self._patches.set(builder, name, hooked)

        hook_access("create_masked_load", "load", 0, 1)
        hook_access("create_masked_store", "store", 0, 2)
        hook_access("create_load", "load", 0, None)
        hook_access("create_store", "store", 0, None)
        hook_access("create_atomic_rmw", "store", 1, 3)
        hook_access("create_atomic_cas", "store", 0, None)

        original_grid_dim = builder.set_grid_dim
        original_grid_idx = builder.set_grid_idx

        def set_grid_dim(*dims):
            result = original_grid_dim(*dims)
            if memcheck._launches:
                launch = memcheck._launches[-1]
                if launch.record is None:
                    launch.record = {
                        "kernel": launch.kernel,
                        "file": launch.file,
                        "grid": [int(d) for d in dims],
                    }
                    memcheck.stats.launches.append(launch.record)
            return result

        def set_grid_idx(*idx):
            result = original_grid_idx(*idx)
            memcheck.stats.programs += 1
            return result

        self._patches.set(builder, "set_grid_dim", set_grid_dim)
        self._patches.set(builder, "set_grid_idx", set_grid_idx)

    # -- the check ------------------------------------------------------------------------------------------

    def _check(self, op: str, access: str, ptrs: Any, mask: Any) -> None:
        if not self._launches:
            return
        launch = self._launches[-1]
        data = np.asarray(getattr(ptrs, "data", ptrs))
        addrs = data.astype(np.uint64, copy=False).reshape(-1)
        if mask is not None:
            m = np.asarray(getattr(mask, "data", mask)).astype(bool, copy=False)
            addrs = addrs[np.broadcast_to(m, data.shape).reshape(-1)]
        nbytes = _element_bytes(ptrs)
        moved = addrs.size * nbytes
        if op == "create_atomic_rmw" or op == "create_atomic_cas":
            self.stats.bytes_loaded += moved
            self.stats.bytes_stored += moved
        elif access == "load":
            self.stats.bytes_loaded += moved
        else:
            self.stats.bytes_stored += moved
        if not launch.checking or addrs.size == 0:
            return
        ok = np.zeros(addrs.shape, dtype=bool)
        for region in launch.regions:
            ok |= region.contains(addrs, nbytes)
        if ok.all():
            return
        raise self._report(launch, op, access, addrs, ok, nbytes)

    def _report(
        self, launch: _Launch, op: str, access: str, addrs: np.ndarray, ok: np.ndarray, nbytes: int
    ) -> OutOfBounds:
        bad = addrs[~ok]
        region = self._blame(launch.regions, addrs[ok], bad, nbytes)
        builder = self._builder
        pid = tuple(getattr(builder, "grid_idx", None) or (0, 0, 0))
        grid = tuple(getattr(builder, "grid_dim", None) or (1, 1, 1))
        file, line = self._source_line(launch)
        code = linecache.getline(file, line).strip() or None if file and line else None
        op_name = {"create_atomic_rmw": "atomic", "create_atomic_cas": "atomic_cas"}.get(op, access)
        if region is None:
            return OutOfBounds(
                access=access,
                op=op_name,
                kernel=launch.kernel,
                arg=None,
                program_id=pid,
                lanes=bad.size,
                offsets=[],
                extent=0,
                file=file,
                line=line,
                reason="unknown",
                grid=grid,
                code=code,
            )
        if bad.size and int(bad.max()) >= 1 << 63:  # wrapped negative addresses: go through Python ints
            all_offsets = np.array(
                [(_signed(int(a)) - region.lo) // region.itemsize for a in bad], dtype=np.int64
            )
        else:
            all_offsets = (bad.astype(np.int64) - np.int64(region.lo)) // region.itemsize
        offsets = [int(o) for o in all_offsets[:_MAX_OFFSETS]]
        span = (int(all_offsets.min()), int(all_offsets.max()))
        extent = region.extent
        if span[0] < 0:
            reason = "before_start"
        elif span[1] * region.itemsize + nbytes > extent * region.itemsize:
            reason = "past_end"
        else:
            reason = "gap"
        return OutOfBounds(
            access=access,
            op=op_name,
            kernel=launch.kernel,
            arg=region.name,
            program_id=pid,
            lanes=bad.size,
            offsets=offsets,
            extent=extent,
            file=file,
            line=line,
            reason=reason,
            numel=region.numel,
            shape=region.shape,
            strides=region.strides,
            grid=grid,
            code=code,
            span=span,
        )

    @staticmethod
    def _blame(regions: list[_Region], good: np.ndarray, bad: np.ndarray, nbytes: int) -> _Region | None:
        """The argument the access most likely meant: the one with its in-bounds lanes, else the nearest."""
        if not regions:
            return None
        if good.size:
            counts = [int(r.contains(good, nbytes).sum()) for r in regions]
            if max(counts) > 0:
                return regions[counts.index(max(counts))]
        addr = _signed(int(bad[0]))

        def distance(r: _Region) -> int:
            if addr < r.lo:
                return r.lo - addr
            if addr >= r.hi:
                return addr - r.hi + 1
            return 0

        return min(regions, key=distance)

    def _source_line(self, launch: _Launch) -> tuple[str | None, int | None]:
        target = self.learner_file or launch.file
        frame = sys._getframe(1)
        fallback: tuple[str | None, int | None] = (None, None)
        while frame is not None:
            filename = frame.f_code.co_filename
            if _same_file(filename, target, self._paths):
                return filename, frame.f_lineno
            if fallback[0] is None and _same_file(filename, launch.file, self._paths):
                fallback = (filename, frame.f_lineno)
            frame = frame.f_back
        return fallback


# ----------------------------------------------------------------------------------------------------------
# Poison


_INT_VIEW = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}

# (unwritten, guard) bit patterns. Float poisons are quiet NaNs with a payload ("DEAD" / "CAFE") that GPU
# arithmetic never produces, so a kernel's own (canonical) NaN is not taken for an unwritten element. Guards
# use a second pattern: NaN read from padding and copied into an output is told apart from "never written".
_POISON_BITS: dict[torch.dtype, tuple[int, int]] = {
    torch.float32: (0x7FDEAD00, 0x7FCAFE00),
    torch.float64: (0x7FFDEAD000000000, 0x7FFCAFE000000000),
    torch.float16: (0x7E5A, 0x7E6C),
    torch.bfloat16: (0x7FDA, 0x7FCA),
    torch.int64: (-0x5A5A5A5A5A5A5A5A & 0xFFFFFFFFFFFFFFFF, -0x3C3C3C3C3C3C3C3C & 0xFFFFFFFFFFFFFFFF),
    torch.int32: (-0x5A5A5A5A & 0xFFFFFFFF, -0x3C3C3C3C & 0xFFFFFFFF),
    torch.int16: (-0x5A5A & 0xFFFF, -0x3C3C & 0xFFFF),
    torch.int8: (0x81, 0x82),  # -127, -126
    torch.uint8: (0xA5, 0xC3),
}
for _name, _bits in (
    ("uint16", (0xA5A5, 0xC3C3)),
    ("uint32", (0xA5A5A5A5, 0xC3C3C3C3)),
    ("uint64", (0xA5A5A5A5A5A5A5A5, 0xC3C3C3C3C3C3C3C3)),
    ("float8_e5m2", (0xFD, 0x7D)),
    ("float8_e4m3fn", (0xFF, 0x7F)),
):
    if hasattr(torch, _name):
        _POISON_BITS[getattr(torch, _name)] = _bits
_GUARD_BYTE = 0xC3  # guard pattern for buffers of dtypes without a poison (bool)


def poison_bits(dtype: torch.dtype, guard: bool = False) -> int | None:
    """The raw bit pattern (unsigned) poisoning `dtype`; None for dtypes that have none (bool, complex)."""
    bits = _POISON_BITS.get(dtype)
    return None if bits is None else bits[1 if guard else 0]


def _signed_bits(bits: int, itemsize: int) -> int:
    width = 8 * itemsize
    return bits - (1 << width) if bits >= 1 << (width - 1) else bits


def poison_value(dtype: torch.dtype, guard: bool = False) -> float | int | None:
    """The poison as a Python value of `dtype` (a NaN for float types); None where there is none."""
    bits = poison_bits(dtype, guard)
    if bits is None:
        return None
    size = torch.empty((), dtype=dtype).element_size()
    raw = torch.tensor(_signed_bits(bits, size), dtype=_INT_VIEW[size])
    return raw.view(dtype).item()


def _fill_bits(tensor: torch.Tensor, bits: int) -> None:
    size = tensor.element_size()
    tensor.view(_INT_VIEW[size]).fill_(_signed_bits(bits, size))


def poison_(tensor: torch.Tensor, guard: bool = False) -> torch.Tensor:
    """Fill `tensor` with its dtype's poison (through an integer view); bool and complex are left alone."""
    bits = poison_bits(tensor.dtype, guard)
    if bits is not None and tensor.numel():
        _fill_bits(tensor, bits)
    return tensor


def is_poison(tensor: torch.Tensor, guard: bool = False) -> torch.Tensor:
    """Where `tensor` still holds the poison bit pattern, i.e. was never written (bool tensor, same shape)."""
    bits = poison_bits(tensor.dtype, guard)
    if bits is None:
        return torch.zeros(tensor.shape, dtype=torch.bool, device=tensor.device)
    size = tensor.element_size()
    return tensor.view(_INT_VIEW[size]) == _signed_bits(bits, size)


# ----------------------------------------------------------------------------------------------------------
# Guard zones

_torch_empty = torch.empty
_torch_empty_like = torch.empty_like
_torch_empty_strided = torch.empty_strided
_tensor_new_empty = torch.Tensor.new_empty


@dataclasses.dataclass
class GuardedAllocation:
    """A tensor living inside a larger poisoned buffer: [guard | pad | span with gaps | guard]."""

    name: str
    tensor: torch.Tensor
    buffer: (
        torch.Tensor | None
    )  # integer view of the whole buffer; None when the tensor is poisoned, not guarded
    start: int = 0  # buffer index of the tensor's first element
    span: int = 0  # elements from the first to the last element of the view
    gaps: torch.Tensor | None = None  # bool over the span: True where the view has no element
    guard_bits: int = 0


def _contiguous_strides(shape: tuple[int, ...]) -> tuple[int, ...]:
    strides, acc = [], 1
    for size in reversed(shape):
        strides.append(acc)
        acc *= max(size, 1)
    return tuple(reversed(strides))


def _normalize_device(device: Any) -> torch.device:
    device = torch.device(device)
    if device.type == "cuda" and device.index is None:
        device = torch.device("cuda", torch.cuda.current_device())
    return device


class GuardedAllocator:
    """Allocate tensors inside poisoned guard zones and report afterwards which guards a kernel overwrote.

    Guards hold a NaN poison (a second pattern, see `poison_bits(guard=True)`), so an unmasked load of
    padding shows up as NaN in the results, and the tensor itself starts out poisoned, so unwritten outputs
    can be found.
    """

    def __init__(self, device: Any = "cpu", guard_elems: int = 4096) -> None:
        self.device = _normalize_device(device)
        self.guard_elems = int(guard_elems)
        self.allocations: list[GuardedAllocation] = []

    def owns(self, device: Any) -> bool:
        try:
            return _normalize_device(device) == self.device
        except Exception:  # noqa: BLE001
            return False

    def empty(
        self,
        shape: Any,
        dtype: torch.dtype = torch.float32,
        layout: str = "contiguous",
        name: str | None = None,
    ) -> torch.Tensor:
        """A poisoned tensor of `shape` in one of four layouts.

        contiguous: row-major. transposed: column-major (strides reversed), as `x.t()` gives.
        sliced: the last dimension is a slice of wider rows (1-D: every other element), gaps poisoned.
        offset: row-major, starting one element past an aligned address (storage_offset != 0).
        """
        shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list, torch.Size)) else (shape,)))
        pad = 0
        if layout == "contiguous":
            strides = _contiguous_strides(shape)
        elif layout == "transposed":
            strides = tuple(reversed(_contiguous_strides(tuple(reversed(shape)))))
        elif layout == "sliced":
            if len(shape) <= 1:
                strides = (2,) * len(shape)
            else:
                itemsize = torch.empty((), dtype=dtype).element_size()
                align = max(1, 16 // itemsize)
                pitch = (shape[-1] + 4 + align - 1) // align * align
                strides = _contiguous_strides(shape[:-1] + (pitch,))
        elif layout == "offset":
            strides, pad = _contiguous_strides(shape), 1
        else:
            raise ValueError(f"unknown layout {layout!r}: use contiguous, transposed, sliced or offset")
        return self.empty_strided(shape, strides, dtype, name=name, pad=pad)

    def empty_strided(
        self,
        shape: Any,
        strides: Any,
        dtype: torch.dtype = torch.float32,
        name: str | None = None,
        pad: int = 0,
    ) -> torch.Tensor:
        shape = tuple(int(s) for s in shape)
        strides = tuple(int(s) for s in strides)
        if any(s < 0 for s in strides):
            raise ValueError("negative strides are not supported")
        numel = 1
        for s in shape:
            numel *= s
        span = 0 if numel == 0 else 1 + sum((s - 1) * st for s, st in zip(shape, strides))
        storage_dtype = torch.uint8 if dtype == torch.bool else dtype
        start = self.guard_elems + pad
        total = start + span + self.guard_elems
        buffer = _torch_empty(total, dtype=storage_dtype, device=self.device)
        guard_bits = poison_bits(storage_dtype, guard=True)
        if guard_bits is None:
            guard_bits = _GUARD_BYTE if buffer.element_size() == 1 else 0
        _fill_bits(buffer, guard_bits)
        view = buffer.as_strided(shape, strides, start)
        if dtype == torch.bool:
            view.zero_()
            view = view.view(torch.bool)
        else:
            poison_(view)
        gaps = None
        if span != numel:
            gaps = torch.ones(span, dtype=torch.bool, device=self.device)
            gaps.as_strided(shape, strides, 0).fill_(False)
        size = buffer.element_size()
        allocation = GuardedAllocation(
            name=name or f"tensor{len(self.allocations)}",
            tensor=view,
            buffer=buffer.view(_INT_VIEW[size]),
            start=start,
            span=span,
            gaps=gaps,
            guard_bits=_signed_bits(guard_bits, size),
        )
        self.allocations.append(allocation)
        return view

    def track(self, tensor: torch.Tensor, name: str | None = None) -> torch.Tensor:
        """Record a tensor that is poisoned but has no guards (it lives on another device)."""
        self.allocations.append(
            GuardedAllocation(name=name or f"tensor{len(self.allocations)}", tensor=tensor, buffer=None)
        )
        return tensor

    def allocation_of(self, tensor: torch.Tensor) -> GuardedAllocation | None:
        for allocation in self.allocations:
            if allocation.tensor is tensor:
                return allocation
        for allocation in self.allocations:
            t = allocation.tensor
            if t.data_ptr() == tensor.data_ptr() and t.shape == tensor.shape and t.device == tensor.device:
                return allocation
        return None

    def check(self) -> list[dict]:
        """One {name, side, changed, first_offsets} per guard region a kernel wrote into.

        Offsets count elements from the tensor's first element: negative before it, >= its span after it.
        """
        problems = []
        for a in self.allocations:
            if a.buffer is None:
                continue
            changed_before = torch.nonzero(a.buffer[: a.start] != a.guard_bits).reshape(-1)
            if changed_before.numel():
                problems.append(self._problem(a, "before", changed_before - a.start))
            changed_after = torch.nonzero(a.buffer[a.start + a.span :] != a.guard_bits).reshape(-1)
            if changed_after.numel():
                problems.append(self._problem(a, "after", changed_after + a.span))
            if a.gaps is not None:
                body = a.buffer[a.start : a.start + a.span]
                changed_gap = torch.nonzero((body != a.guard_bits) & a.gaps).reshape(-1)
                if changed_gap.numel():
                    problems.append(self._problem(a, "gap", changed_gap))
        return problems

    @staticmethod
    def _problem(a: GuardedAllocation, side: str, offsets: torch.Tensor) -> dict:
        return {
            "name": a.name,
            "side": side,
            "changed": int(offsets.numel()),
            "first_offsets": [int(o) for o in offsets[:_MAX_OFFSETS].tolist()],
        }


# ----------------------------------------------------------------------------------------------------------
# Poisoned allocations in the learner's wrapper


def _size_args(size: tuple) -> tuple[int, ...]:
    if len(size) == 1 and isinstance(size[0], (tuple, list, torch.Size)):
        size = tuple(size[0])
    return tuple(int(s) for s in size)


def _default_device() -> torch.device:
    try:
        return torch.get_default_device()
    except Exception:  # noqa: BLE001
        return torch.device("cpu")


@contextlib.contextmanager
def poisoned_allocations(
    allocator: GuardedAllocator, learner_file: str | None = None
) -> Iterator[GuardedAllocator]:
    """Make torch.empty / empty_like / empty_strided / Tensor.new_empty return poisoned tensors.

    Tensors on the allocator's device come back inside its guard zones; others are poisoned and recorded. With
    `learner_file`, only calls made from that file are intercepted (Triton's own host code is left alone).
    Zero-element requests, `out=`, pinned memory and gradients pass straight through.
    """
    paths: dict = {}

    def wanted(depth: int = 2) -> tuple[bool, str]:
        frame = sys._getframe(depth)
        where = f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"
        if learner_file is None:
            return True, where
        return _same_file(frame.f_code.co_filename, learner_file, paths), where

    def make(api: str, where: str, meta: torch.Tensor, device: torch.device) -> torch.Tensor:
        name = f"{api} at {where}"
        if allocator.owns(device):
            return allocator.empty_strided(tuple(meta.shape), tuple(meta.stride()), meta.dtype, name=name)
        tensor = _torch_empty_strided(
            tuple(meta.shape), tuple(meta.stride()), dtype=meta.dtype, device=device
        )
        return allocator.track(poison_(tensor), name=name)

    def plain(kwargs: dict) -> bool:
        return not (
            kwargs.get("out") is not None
            or kwargs.get("pin_memory")
            or kwargs.get("requires_grad")
            or kwargs.get("names") is not None
            or kwargs.get("layout") not in (None, torch.strided)
        )

    def empty(*size, **kwargs):
        take, where = wanted()
        if take and plain(kwargs):
            try:
                device = _normalize_device(kwargs.get("device") or _default_device())
                meta = _torch_empty(*size, **{**kwargs, "device": "meta"})
                if meta.numel():
                    return make("torch.empty", where, meta, device)
            except Exception:  # noqa: BLE001
                pass
        return _torch_empty(*size, **kwargs)

    def empty_like(input, *args, **kwargs):
        take, where = wanted()
        if (
            take
            and not args
            and plain(kwargs)
            and isinstance(input, torch.Tensor)
            and input.layout == torch.strided
        ):
            try:
                device = _normalize_device(kwargs.get("device") or input.device)
                meta = _torch_empty_like(input.to("meta"), **{**kwargs, "device": "meta"})
                if meta.numel():
                    return make("torch.empty_like", where, meta, device)
            except Exception:  # noqa: BLE001
                pass
        return _torch_empty_like(input, *args, **kwargs)

    def empty_strided(size, stride, *args, **kwargs):
        take, where = wanted()
        if take and not args and plain(kwargs):
            try:
                device = _normalize_device(kwargs.get("device") or _default_device())
                meta = _torch_empty_strided(size, stride, **{**kwargs, "device": "meta"})
                if meta.numel():
                    return make("torch.empty_strided", where, meta, device)
            except Exception:  # noqa: BLE001
                pass
        return _torch_empty_strided(size, stride, *args, **kwargs)

    def new_empty(self, *size, **kwargs):
        take, where = wanted()
        if take and plain(kwargs):
            try:
                device = _normalize_device(kwargs.get("device") or self.device)
                dtype = kwargs.get("dtype") or self.dtype
                shape = _size_args(size)
                meta = _torch_empty(shape, dtype=dtype, device="meta")
                if meta.numel():
                    return make("Tensor.new_empty", where, meta, device)
            except Exception:  # noqa: BLE001
                pass
        return _tensor_new_empty(self, *size, **kwargs)

    patches = _Patches()
    try:
        patches.set(torch, "empty", empty)
        patches.set(torch, "empty_like", empty_like)
        patches.set(torch, "empty_strided", empty_strided)
        patches.set(torch.Tensor, "new_empty", new_empty)
        yield allocator
    finally:
        patches.restore()
