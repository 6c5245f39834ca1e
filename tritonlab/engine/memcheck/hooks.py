"""Patching helpers shared by the launch recorder and the bounds checker: reversible patches, interpreter
mode, and a kernel's name, file and grid."""

from __future__ import annotations

import contextlib
import inspect
import os
from typing import Any

import numpy as np

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
    with contextlib.suppress(Exception):
        fn = inspect.unwrap(fn)
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
    x, y, z = dims + [1] * (3 - len(dims))
    return (x, y, z)


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
