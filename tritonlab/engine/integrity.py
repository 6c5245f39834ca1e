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

Triton's language is watched the same way (probe round 14: `tl.store = mine`, marked `__triton_builtin__`,
wrote torch's product into every stored tile): every function and class of `triton.language` (`.core`,
`.math`, `.standard`) and every attribute of those classes (`tl.tensor`'s methods), compared after each case
and, since the file could put Triton's back before it returns, at every kernel launch (`launch_watch`,
entered by `exercise_env.LearnerCall`). The same watch names a trace or profile hook (`sys.settrace`,
`threading`'s) present at a launch that was not there when the call began: one installed only around the
launch rewrote the interpreted kernel's local tile and was gone before the call returned.

A deterrent, not a proof: code that walks the garbage collector to rewrite this check, or that edits the
recording's data rather than its code, gets past it. The values are compared by the judge on its own inputs
whatever the runner says.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import operator
import os
import sys
import threading
from collections.abc import Iterator
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
#: Triton's language: each module's functions and classes (replaced or deleted; an added name is not a change)
#: and every attribute of those classes (added, replaced or deleted), on both backends: the interpreter runs
#: these functions inside a kernel, a GPU's code generator calls them to build it
LANGUAGE = ("triton.language", "triton.language.core", "triton.language.math", "triton.language.standard")
_LANGUAGE_PREFIX = "triton.language."

Entry = tuple[Any, Any, Any, Any, Any]  # owner (module or class), attribute, object, __code__, __defaults__
#: what Python itself adds to a class on first use: copyreg caches `__slotnames__` when a tensor is copied or
#: pickled (tests/unit/test_inputs.py deep-copies a case's tensors), and a class's `__annotations__`, made on
#: first read (the interpreter's per-launch patch of `tl.tensor` reads it)
LAZY = frozenset({"__slotnames__", "__annotations__"})
ADDED = object()  # the attribute slot of an entry that holds a class's attribute names (anything added)


def _function(value: Any) -> Any:
    return value.__func__ if isinstance(value, (staticmethod, classmethod)) else value


def _entry(owner: Any, attr: str, value: Any) -> Entry:
    fn = _function(value)
    if inspect.isfunction(fn):
        return owner, attr, value, _codes(fn), fn.__defaults__
    return owner, attr, value, None, None


def _codes(fn: Any) -> tuple:
    """The code of `fn` and of the functions it wraps (`__wrapped__`, as Triton's `@builtin` wraps each
    language function): rewriting the inner function's `__code__` changes what the outer one runs."""
    found = []
    for _ in range(4):
        code = getattr(fn, "__code__", None)
        if code is None:
            break
        found.append(code)
        fn = getattr(fn, "__wrapped__", None)
        if not inspect.isfunction(fn):
            break
    return tuple(found)


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
    language = _language_entries()
    entries.update(language)
    _LANGUAGE.clear()
    _LANGUAGE.update(language)
    _PLANS.clear()  # _LANGUAGE is the same dict with new entries
    if backend == "interpreter":
        for module_name, class_name, methods in TRITON_HOOKED:
            cls = getattr(sys.modules.get(module_name), class_name, None)
            for method in methods if cls is not None else ():
                if method in vars(cls):
                    entries[f"{module_name}.{class_name}.{method}"] = _entry(cls, method, vars(cls)[method])
    return entries


def _language_entries() -> dict[str, Entry]:
    """The functions and classes of Triton's language modules, and each of those classes' own attributes."""
    entries: dict[str, Entry] = {}
    classes: dict[int, tuple[str, type]] = {}
    for module_name in LANGUAGE:
        module = sys.modules.get(module_name)
        for attr, value in list(vars(module).items()) if module is not None else ():
            if not callable(value) or inspect.ismodule(value):
                continue
            entries[f"{module_name}.{attr}"] = _entry(module, attr, value)
            home = getattr(value, "__module__", None) or ""
            if inspect.isclass(value) and (home == "triton.language" or home.startswith("triton.language.")):
                classes.setdefault(id(value), (f"{home}.{value.__qualname__}", value))
    for label, cls in classes.values():
        for attr, value in list(vars(cls).items()):
            if attr not in LAZY:
                entries[f"{label}.{attr}"] = _entry(cls, attr, value)
        entries[f"{label}.*"] = (cls, ADDED, frozenset(vars(cls)), None, None)
    return entries


#: the language entries of the last snapshot: what `launch_watch` compares at each launch
_LANGUAGE: dict[str, Entry] = {}
#: what a launch found changed since the call began (a hook) or since the snapshot (the language), each once
SEEN_AT_LAUNCH: list[str] = []
_HOOK_NAMES = ("sys.settrace", "sys.setprofile", "threading.settrace", "threading.setprofile")
#: the hook readers as they were when the lab was imported: a file that replaces `sys.gettrace` does not
#: change what this watch reads
_HOOK_READERS = (
    sys.gettrace,
    sys.getprofile,
    getattr(threading, "gettrace", lambda: None),
    getattr(threading, "getprofile", lambda: None),
)


#: the hook setters as they were when the lab was imported, in _HOOK_NAMES' order: a file that replaces
#: `sys.settrace` does not get its function called when the lab puts the hooks back
_HOOK_SETTERS = (
    sys.settrace,
    sys.setprofile,
    getattr(threading, "settrace", lambda hook: None),
    getattr(threading, "setprofile", lambda hook: None),
)


def restore_hooks(before: tuple) -> list[str]:
    """Put back the hooks of `before` (`hooks_now()` from before the learner's code ran) that are no longer
    installed; the names of those that had changed."""
    names = hook_names(before, hooks_now())
    for name in names:
        index = _HOOK_NAMES.index(name)
        _HOOK_SETTERS[index](before[index])
    return names


def hooks_now() -> tuple:
    """(sys trace, sys profile, threading trace, threading profile): the hooks installed now."""
    return tuple(read() for read in _HOOK_READERS)


def hook_names(before: tuple, now: tuple) -> list[str]:
    """The hooks of `now` that are not those of `before`, by the call that installs them."""
    return [name for name, was, is_ in zip(_HOOK_NAMES, before, now, strict=False) if is_ is not was]


def _seen(names: list[str]) -> None:
    for name in names:
        if name not in SEEN_AT_LAUNCH and len(SEEN_AT_LAUNCH) < 16:
            SEEN_AT_LAUNCH.append(name)


def check_launch(hooks: tuple) -> None:
    """At a kernel launch: a hook that was not there when the learner's call began (`hooks`), and any
    language function or class attribute not as the snapshot saw it, are noted (`take_seen_at_launch`)."""
    _seen(hook_names(hooks, hooks_now()))
    if _LANGUAGE:
        _seen(changed(_LANGUAGE))


def take_seen_at_launch() -> list[str]:
    """What launches found since the last call of this (each name once), in the order found."""
    found = list(SEEN_AT_LAUNCH)
    SEEN_AT_LAUNCH.clear()
    return found


@contextlib.contextmanager
def launch_watch(hooks: tuple) -> Iterator[None]:
    """Inside, every kernel launch (interpreted, a JITFunction's run, a compiled kernel's `k[grid](...)`) is
    checked before it runs and when it ends (`check_launch`), through memcheck's one wrapper of those entry
    points (`watch_kernel_runs`); put back on exit."""
    from tritonlab.engine.memcheck.launches import watch_kernel_runs

    patches = watch_kernel_runs(
        lambda fn, args, kwargs, warmup: check_launch(hooks), lambda: check_launch(hooks)
    )
    try:
        yield
    finally:
        patches.restore()


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


#: where the interpreter's own stand-ins for the language are written: Triton's interpreter, and the lab's
#: repairs of it (`tl.tensor.__index__`)
_STAND_IN_HOMES = ("triton.runtime.interpreter", "tritonlab.engine.interpreter_support")


def _interpreter_made(now: Any, was: Any, attr: str, depth: int = 0) -> bool:
    """A stand-in the interpreter itself puts on the language for a launch: `_patch_attr`'s lambda that calls
    `was`, `_patch_lang_core`'s `range`/`multiple_of`/`static_print`/`dtype.to_ir`, `_patch_reduce_scan`'s
    `reduce`, `_patch_lang_tensor`'s `__bool__`/`T` (or the lab's repair of one). A device-function call
    (`tl.sum`, a jit function of `triton.language.standard`) patches the language of that function's module
    (`tl.core`) and never restores it, so these stay after a launch; each is made anew by the next. Only
    functions of those two modules, run with their own globals, whose closures hold only such functions."""
    if attr == "static_print" and now is _PRINT:
        return True
    fn = now.fget if isinstance(now, property) else now
    if isinstance(fn, functools.partial):
        if any(callable(v) for v in (*fn.args, *fn.keywords.values())):
            return False
        fn = fn.func
    if not inspect.isfunction(fn) or depth > 2:
        return False
    interpreter, repairs = (sys.modules.get(name) for name in _STAND_IN_HOMES)
    made = interpreter is not None and fn.__globals__ is vars(interpreter) and "<locals>" in fn.__qualname__
    if not made and not (repairs is not None and fn.__globals__ is vars(repairs)):
        return False  # the interpreter's are made by its patch functions, never its module-level ones
    member = (fn.__kwdefaults__ or {}).get("member", was)
    if member is not was:
        return False  # a stand-in that calls something else than the language's own function
    for cell in fn.__closure__ or ():
        try:
            inner = cell.cell_contents
        except ValueError:
            continue
        if callable(inner) and not _interpreter_made(inner, None, "", depth + 1):
            return False
    return True


_PRINT = print


def _resolved(owner: Any, name: str) -> Any:
    """What a class gets for `name` from its bases (None when none has it)."""
    for base in getattr(owner, "__mro__", ())[1:]:
        if name in vars(base):
            return vars(base)[name]
    return None


def _inherited(owner: Any, name: str) -> bool:
    """A class attribute that only repeats what the class resolved from a base (the interpreter's restore
    of `tl.tensor.__repr__` sets the inherited one on the class itself)."""
    value = vars(owner).get(name)
    return value is not None and _resolved(owner, name) is value


#: id(entries) -> (entries, their count, the plan of `_unchanged`): each launch compares the language twice
_PLANS: dict[int, tuple[dict, int, tuple | None]] = {}


def _plan(entries: dict[str, Entry]) -> tuple | None:
    """Flat lists of what `changed` reads, so that the common answer (nothing changed) takes a few C-level
    passes instead of a Python loop over ~1,100 entries (13 ms a launch on the interpreter). None when the
    objects no longer match the snapshot's codes (then only the full comparison answers)."""
    slots, values, fns, codes, linked, links, tops, defaults, added = ([] for _ in range(9))
    for owner, attr, value, code, dflt in entries.values():
        space = vars(owner)
        if attr is ADDED:
            added.append((space, value | LAZY))
            continue
        slots.append((space, attr))
        values.append(value)
        if code is None:
            continue
        fn = _function(value)
        tops.append(fn)
        defaults.append(dflt)
        chain = []
        for _ in range(len(code)):  # the functions `_codes` walks through `__wrapped__`
            if not inspect.isfunction(fn):
                return None
            chain.append(fn)
            fn = getattr(fn, "__wrapped__", None)
        if (len(code) < 4 and inspect.isfunction(fn)) or any(
            f.__code__ is not c for f, c in zip(chain, code, strict=True)
        ):
            return None  # not as the snapshot saw it: `_codes` would walk further, or to other code
        fns.extend(chain)
        codes.extend(code)
        for f in chain:  # where each one's `__wrapped__` leads: another target makes `_codes` walk elsewhere
            linked.append(f)
            links.append(getattr(f, "__wrapped__", None))
    return slots, values, fns, codes, linked, links, tops, defaults, added


def _unchanged(entries: dict[str, Entry]) -> bool:
    """True only when every entry is exactly as the snapshot saw it (the slow comparison would find nothing);
    False means "look closer", not "changed"."""
    cached = _PLANS.get(id(entries))
    if cached is None or cached[0] is not entries or cached[1] != len(entries):
        if len(_PLANS) >= 8:
            _PLANS.clear()
        cached = _PLANS[id(entries)] = (entries, len(entries), _plan(entries))
    plan = cached[2]
    if plan is None:
        return False
    slots, values, fns, codes, linked, links, tops, defaults, added = plan
    same = operator.is_
    return (
        all(map(same, [space.get(attr) for space, attr in slots], values))
        and all(map(same, [f.__code__ for f in fns], codes))
        and all(map(same, [getattr(f, "__wrapped__", None) for f in linked], links))
        and all(map(same, [f.__defaults__ for f in tops], defaults))
        and all(space.keys() <= allowed for space, allowed in added)
    )


def changed(entries: dict[str, Entry]) -> list[str]:
    """What no longer is what the snapshot saw, by dotted name (sorted)."""
    if _unchanged(entries):
        return []
    found: list[str] = []
    for label, (owner, attr, value, code, defaults) in entries.items():
        language = label.startswith(_LANGUAGE_PREFIX)
        if attr is ADDED:
            added = set(vars(owner)) - value - LAZY
            found.extend(
                f"{label[:-2]}.{name}"
                for name in sorted(added)
                if not _inherited(owner, name)
                and not (language and _interpreter_made(vars(owner)[name], _resolved(owner, name), name))
            )
            continue
        now = vars(owner).get(attr)
        if (
            now is not value
            and not _torch_wraps(now, value)
            and not (language and _interpreter_made(now, value, attr))
        ):
            found.append(label)
            continue
        fn = _function(value)
        if code is not None and (not _same_codes(_codes(fn), code) or fn.__defaults__ is not defaults):
            found.append(label)
    return sorted(found)


def _same_codes(now: tuple, was: tuple) -> bool:
    return len(now) == len(was) and all(a is b for a, b in zip(now, was, strict=False))
