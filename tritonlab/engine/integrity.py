"""The lab's own code in a runner, as it was before any learner code ran.

The runner records facts the judge cannot see for itself (which kernel wrote the output, which launches
happened, which operators ran). A learner's file runs in the same process and could rewrite that recording
in one line (`verify_runner.Provenance.facts = lambda self, got: {...}`), so the runner snapshots every
function and class of `tritonlab.engine` (and, on the interpreter, the Triton entry points the lab hooks)
before loading the file, and compares after each case: any function replaced, any class method swapped,
any `__code__` or defaults rewritten is the error kind `tampered`, naming what changed.

A deterrent, not a proof: code that walks the garbage collector to rewrite this check, or that edits the
recording's data rather than its code, gets past it. The values are compared by the judge on its own inputs
whatever the runner says.
"""

from __future__ import annotations

import inspect
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

Entry = tuple[Any, str, Any, Any, Any]  # owner (module or class), attribute, object, __code__, __defaults__


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
    if backend == "interpreter":
        for module_name, class_name, methods in TRITON_HOOKED:
            cls = getattr(sys.modules.get(module_name), class_name, None)
            for method in methods if cls is not None else ():
                if method in vars(cls):
                    entries[f"{module_name}.{class_name}.{method}"] = _entry(cls, method, vars(cls)[method])
    return entries


def changed(entries: dict[str, Entry]) -> list[str]:
    """What no longer is what the snapshot saw, by dotted name (sorted)."""
    found = []
    for label, (owner, attr, value, code, defaults) in entries.items():
        now = vars(owner).get(attr)
        if now is not value:
            found.append(label)
            continue
        fn = _function(value)
        if code is not None and (fn.__code__ is not code or fn.__defaults__ is not defaults):
            found.append(label)
    return sorted(found)
