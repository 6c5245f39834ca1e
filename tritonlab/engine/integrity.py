"""The lab's own code in a runner, as it was before any learner code ran.

The runner records facts the judge cannot see for itself (which kernel wrote the output, which launches
happened, which operators ran). A learner's file runs in the same process and could rewrite that recording
in one line (`verify_runner.Provenance.facts = lambda self, got: {...}`), so the runner snapshots every
function and class of `tritonlab.engine` (and, on the interpreter, the Triton entry points the lab hooks)
before loading the file, and compares after each case: any function replaced, any class method swapped,
any `__code__` or defaults rewritten is the error kind `tampered`, naming what changed.

The libraries the runner checks with are watched too (probe round 8 got three false passes past the lab's
own code): a function of `torch`, `torch.serialization`, `numpy` or `builtins` replaced or deleted, and any
attribute of `torch.Tensor` added, replaced or deleted (`torch.save` rewritten to save other values,
`Tensor.__ne__` answering "equal" to the provenance check). torch rewrites one of its own functions when
torch.compile first imports Dynamo (`torch.manual_seed` = `_disable_dynamo(torch.manual_seed)`): a new value
that wraps the old one (`__wrapped__`) with code inside torch's own package is torch's, not a change. A
profile or trace hook (`sys.setprofile`) left installed when the learner's call returns would run inside the
lab's checks: `exercise_env.LearnerCall` removes it and says so (`hooks_left`).

A deterrent, not a proof: code that walks the garbage collector to rewrite this check, or that edits the
recording's data rather than its code, gets past it. The values are compared by the judge on its own inputs
whatever the runner says.
"""

from __future__ import annotations

import inspect
import os
import sys
from typing import Any

WATCHED = "tritonlab.engine"
#: Triton classes whose methods the lab wraps around a learner's launch (interpreter backend only: on a GPU,
#: torch.compile's Triton integration may legitimately touch them).
TRITON_HOOKED = (
    ("triton.runtime.jit", "JITFunction", ("run",)),
    ("triton.runtime.interpreter", "GridExecutor", ("__call__",)),
    ("triton.compiler.compiler", "CompiledKernel", ("__getitem__",)),
)

#: modules whose functions (and classes) the lab's checks call after the learner's code ran: replaced or
#: deleted is a change (an added module attribute is not: importing a submodule adds one)
LIBRARIES = (
    "torch",
    "torch.serialization",
    "numpy",
    "builtins",
    "json",
    "json.encoder",
    "json.decoder",
    "pickle",
)
#: classes whose every attribute counts: added, replaced or deleted
CLASSES = (("torch", "Tensor"), ("torch._C", "TensorBase"))

Entry = tuple[Any, Any, Any, Any, Any]  # owner (module or class), attribute, object, __code__, __defaults__
#: what Python itself adds to a class on first use: copyreg caches `__slotnames__` when a tensor is copied or
#: pickled (tests/unit/test_inputs.py deep-copies a case's tensors)
LAZY = frozenset({"__slotnames__"})
ADDED = object()  # the attribute slot of an entry that holds a class's attribute names (anything added)


def _function(value: Any) -> Any:
    return value.__func__ if isinstance(value, (staticmethod, classmethod)) else value


def _entry(owner: Any, attr: str, value: Any) -> Entry:
    fn = _function(value)
    if inspect.isfunction(fn):
        return owner, attr, value, fn.__code__, fn.__defaults__
    return owner, attr, value, None, None


def snapshot(backend: str) -> dict[str, Entry]:
    """Every function and class the engine modules define (and each class's own methods)."""
    entries: dict[str, Entry] = {}
    for name, module in list(sys.modules.items()):
        if module is None or not (name == WATCHED or name.startswith(WATCHED + ".")):
            continue
        for attr, value in list(vars(module).items()):
            if getattr(value, "__module__", None) != name:
                continue  # imported from elsewhere: checked where it is defined
            if inspect.isfunction(value):
                entries[f"{name}.{attr}"] = _entry(module, attr, value)
            elif inspect.isclass(value):
                entries[f"{name}.{attr}"] = _entry(module, attr, value)
                for key, member in list(vars(value).items()):
                    if inspect.isfunction(_function(member)):
                        entries[f"{name}.{attr}.{key}"] = _entry(value, key, member)
    for module_name in LIBRARIES:
        library = sys.modules.get(module_name)
        for attr, value in list(vars(library).items()) if library is not None else ():
            if callable(value) and not inspect.ismodule(value):
                entries[f"{module_name}.{attr}"] = (library, attr, value, None, None)
    for module_name, class_name in CLASSES:
        cls = getattr(sys.modules.get(module_name), class_name, None)
        if cls is None:
            continue
        label = f"{module_name}.{class_name}"
        for attr, value in list(vars(cls).items()):
            entries[f"{label}.{attr}"] = (cls, attr, value, None, None)
        entries[f"{label}.*"] = (cls, ADDED, frozenset(vars(cls)), None, None)
    if backend == "interpreter":
        for module_name, class_name, methods in TRITON_HOOKED:
            cls = getattr(sys.modules.get(module_name), class_name, None)
            for method in methods if cls is not None else ():
                if method in vars(cls):
                    entries[f"{module_name}.{class_name}.{method}"] = _entry(cls, method, vars(cls)[method])
    return entries


_TORCH_DIR: str | None = None


def _torch_wraps(now: Any, was: Any) -> bool:
    """torch's own rewrite of one of its functions: the new one wraps the old (`functools.wraps`) and its
    code is in torch's package."""
    global _TORCH_DIR
    if getattr(now, "__wrapped__", None) is not was:
        return False
    torch = sys.modules.get("torch")
    if _TORCH_DIR is None and torch is not None and torch.__file__:
        _TORCH_DIR = os.path.dirname(os.path.abspath(torch.__file__)) + os.sep
    code = getattr(_function(now), "__code__", None)
    return (
        bool(_TORCH_DIR)
        and code is not None
        and os.path.abspath(code.co_filename).startswith(str(_TORCH_DIR))
    )


def changed(entries: dict[str, Entry]) -> list[str]:
    """What no longer is what the snapshot saw, by dotted name (sorted)."""
    found: list[str] = []
    for label, (owner, attr, value, code, defaults) in entries.items():
        if attr is ADDED:
            added = set(vars(owner)) - value - LAZY
            found.extend(f"{label[:-2]}.{name}" for name in sorted(added))
            continue
        now = vars(owner).get(attr)
        if now is not value and not _torch_wraps(now, value):
            found.append(label)
            continue
        fn = _function(value)
        if code is not None and (fn.__code__ is not code or fn.__defaults__ is not defaults):
            found.append(label)
    return sorted(found)
