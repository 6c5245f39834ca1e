"""Kernel launches inside a torch.library operator's body, and whether they went through `wrap_triton`.

Lesson 12's operators must launch their kernels as `wrap_triton(kernel)[grid](...)`: torch.compile traces
the op's body with fake tensors, and only a wrapped launch becomes a graph node (a bare `kernel[grid](...)`
hands Triton a fake tensor). Eagerly the two are the same launch: inside a `triton_op` body torch turns
wrap_triton off (`set_wrap_triton_enabled(False)`) and `wrap_triton(kernel)` returns the kernel itself, as it
always does for an interpreted kernel. So the runner makes the difference visible (`install`, in the zygote
before any learner code):

- `wrap_triton` hands back a `WrappedKernel` wherever torch would hand back the kernel itself; launching
  through it (`[grid](...)`, `.run(...)`) runs frames whose code objects the launch recorder knows
  (`wrapped_codes`), as does torch's own `TraceableTritonKernelWrapper` (what wrap_triton returns at module
  level on a GPU).
- `context()`, asked by the launch recorder for every launch: None outside any operator; inside one (torch's
  wrap_triton switch is off, or the runner's dispatch watch saw one of the exercise's operators start:
  `inside`), the operator's name, whether a wrapped launch frame sits between the launch and the operator's
  body, and the frames in between (the learner's launch line is among them).

The function object `torch.library.wrap_triton` keeps its identity (its code is swapped, not the attribute):
torch.compile's Dynamo recognises it by identity and treats it as a no-op while tracing, so nothing here
ever runs inside a compiled graph. A launch inside a plain `torch.library.custom_op` body is no concern
here (torch.compile never traces into one). Limits: a learner who switches torch's flag back on inside an
op that is not one of the exercise's operators, who launches through Triton's lower-level compiled launcher
(`CompiledKernel.run`), from a thread of their own, or who builds a `WrappedKernel` by hand, is not seen
(on a GPU the compile check is still expected to catch those: torch.compile hands them fake tensors).
"""

from __future__ import annotations

import contextlib
import sys
import threading
import types
from collections.abc import Iterator
from typing import Any

_local = threading.local()  # .ops: the exercise's operators whose bodies run on this thread, innermost last
_MAX_FRAMES = 64


class WrappedKernel:
    """What the runner's `wrap_triton` returns where torch would return the kernel itself: the same launches
    (`wrapped[grid](...)`, `wrapped.run(...)`, any attribute), through frames the launch recorder knows."""

    __slots__ = ("kernel",)

    def __init__(self, kernel: Any) -> None:
        self.kernel = kernel

    def __getitem__(self, grid: Any) -> _Launcher:
        return _Launcher(self.kernel[grid])

    def run(self, *args: Any, **kwargs: Any) -> Any:
        return self.kernel.run(*args, **kwargs)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.kernel(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name == "kernel":  # not set yet (a copy being built): no recursion through the slot
            raise AttributeError(name)
        return getattr(self.kernel, name)

    def __repr__(self) -> str:
        return f"wrap_triton({self.kernel!r})"


class _Launcher:
    __slots__ = ("launch",)

    def __init__(self, launch: Any) -> None:
        self.launch = launch

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.launch(*args, **kwargs)


_WRAPPED_CODES: set[Any] = {_Launcher.__call__.__code__, WrappedKernel.run.__code__}
_torch_codes_added = False


def wrapped_codes() -> set[Any]:
    """The code objects of a launch through wrap_triton: ours, and torch's TraceableTritonKernelWrapper's."""
    global _torch_codes_added
    if not _torch_codes_added:
        module = sys.modules.get("torch._higher_order_ops.triton_kernel_wrap")
        cls = getattr(module, "TraceableTritonKernelWrapper", None)
        if cls is not None:
            for name in ("__call__", "run"):
                code = getattr(vars(cls).get(name), "__code__", None)
                if code is not None:
                    _WRAPPED_CODES.add(code)
            _torch_codes_added = True
    return _WRAPPED_CODES


def _interpreted(kernel: Any) -> bool:
    """An InterpretedFunction, or an @triton.autotune / @triton.heuristics around one."""
    try:
        from triton.runtime.interpreter import InterpretedFunction
    except Exception:  # noqa: BLE001 - no triton: nothing is interpreted
        return False
    inner = kernel
    for _ in range(4):
        if isinstance(inner, InterpretedFunction):
            return True
        inner = getattr(inner, "fn", None)
    return False


def _marked_wrap_triton(original: Any, triton_kernel: Any) -> Any:
    if isinstance(triton_kernel, WrappedKernel):
        return triton_kernel
    try:
        result = original(triton_kernel)
    except RuntimeError:  # torch 2.11 refuses an interpreted kernel (interpreter_support.repair_wrap_triton)
        if not _interpreted(triton_kernel):
            raise
        result = triton_kernel
    return WrappedKernel(triton_kernel) if result is triton_kernel else result


_TEMPLATE = "def wrap_triton(triton_kernel, /):\n    return _tritonlab_wrap_triton(triton_kernel)\n"


def install() -> bool:
    """Make torch's wrap_triton mark its launches (idempotent; False where torch has no wrap_triton). The
    function object stays the one torch exports (`torch.library.wrap_triton`): its code now calls
    `_marked_wrap_triton` with a copy of the original function."""
    try:
        import torch._library.triton as module
    except Exception:  # noqa: BLE001 - an older torch: no triton_op, nothing to watch
        return False
    target = getattr(module, "wrap_triton", None)
    target = getattr(target, "_tritonlab_original", target)  # torch 2.11's interpreter repair stands in front
    if not isinstance(target, types.FunctionType):
        return False
    if getattr(target, "_tritonlab_marked", False):
        return True
    if target.__closure__:
        return False
    original = types.FunctionType(
        target.__code__, target.__globals__, target.__name__, target.__defaults__, target.__closure__
    )
    original.__kwdefaults__ = target.__kwdefaults__
    namespace: dict[str, Any] = {}
    exec(compile(_TEMPLATE, target.__code__.co_filename, "exec"), target.__globals__, namespace)  # noqa: S102
    target.__globals__["_tritonlab_wrap_triton"] = lambda kernel, /: _marked_wrap_triton(original, kernel)
    target.__code__ = namespace["wrap_triton"].__code__
    target._tritonlab_marked = True  # type: ignore[attr-defined]
    return True


@contextlib.contextmanager
def inside(op: str) -> Iterator[None]:
    """The body of the exercise's operator `op` runs in here (the runner's dispatch watch,
    outputs.OpRecorder)."""
    ops = getattr(_local, "ops", None)
    if ops is None:
        ops = _local.ops = []
    ops.append(op)
    try:
        yield
    finally:
        ops.pop()


def _wrap_triton_off() -> bool:
    """torch's switch is off: a triton_op's body is running eagerly on this thread."""
    module = sys.modules.get("torch._library.triton")
    enabled = getattr(module, "is_wrap_triton_enabled", None)
    if enabled is None:
        return False
    try:
        return not enabled()
    except Exception:  # noqa: BLE001
        return False


def _in_torch(frame: Any, path: str) -> bool:
    return frame.f_code.co_filename.replace("\\", "/").endswith("torch/" + path)


def _is_op_body(frame: Any) -> bool:
    """torch's `backend_fn` of a triton_op (the frame that runs the learner's body), or a dispatch mode's
    handler (the runner's watch, which called the operator)."""
    code = frame.f_code
    if code.co_name == "__torch_dispatch__":
        return True
    return code.co_name == "backend_fn" and _in_torch(frame, "_library/triton.py")


def _op_name(frame: Any) -> str | None:
    """The operator whose `backend_fn` this frame is (torch keeps the learner's function in its closure)."""
    fn = frame.f_locals.get("fn")
    try:
        from torch._library.custom_ops import OPDEFS
    except Exception:  # noqa: BLE001
        return None
    for name, opdef in list(OPDEFS.items()):
        init = getattr(opdef, "_init_fn", None)
        cells = getattr(init, "__closure__", None) or ()
        if any(_cell(cell) is fn for cell in cells):
            return str(name)
    return None


def _cell(cell: Any) -> Any:
    try:
        return cell.cell_contents
    except ValueError:  # an empty cell
        return None


def context() -> dict | None:
    """None outside any operator's body; inside one {op, wrapped, frames}: the operator (None when it cannot
    be named), whether the launch went through wrap_triton, and (when it did not) the frames from the launch
    out to the operator's body, innermost first, as [file, line]."""
    ops = getattr(_local, "ops", None)
    if not ops and not _wrap_triton_off():
        return None
    op = ops[-1] if ops else None
    codes = wrapped_codes()
    frames: list[list] = []
    wrapped = False
    frame: Any = sys._getframe(1)
    for _ in range(4 * _MAX_FRAMES):
        if frame is None:
            break
        if _is_op_body(frame):
            op = op or (_op_name(frame) if frame.f_code.co_name == "backend_fn" else None)
            break
        if _in_torch(frame, "_library/custom_ops.py"):
            # the body of a plain torch.library.custom_op (called from the operator's body, or an exercise's
            # operator registered that way): opaque to torch.compile, which never traces its launches
            return None
        if frame.f_code in codes:
            wrapped = True  # a launch through wrap_triton below the body: walk on only to name the operator
        elif not wrapped and len(frames) < _MAX_FRAMES:
            frames.append([frame.f_code.co_filename, frame.f_lineno])
        frame = frame.f_back
    return {"op": op, "wrapped": wrapped, "frames": [] if wrapped else frames}
