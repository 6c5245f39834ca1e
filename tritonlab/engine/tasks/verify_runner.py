"""verify, the runner's half: call the learner's wrapper on the judge's inputs and report what happened.

Runs in the untrusted runner (engine/runner.py), never in the judge. For each case it re-places the judge's
input values inside guard zones, calls the wrapper under launch tracking, the interpreter's bounds checks and
a provenance watch, saves what came back (torch.save, re-validated by the judge) and sends facts: launches,
guard problems, and where the returned tensor's values came from. No reference exists in this process, and
nothing here decides pass or fail.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import time
from typing import Any

import numpy as np
import torch
from torch.utils._python_dispatch import _disable_current_modes

from tritonlab.engine import contracts, cuda_ipc, exercise_env, memcheck, torch_work
from tritonlab.engine.inputs import (
    call_args,
    case_inputs,
    describe,
    digest,
    make_inputs,
    place_inputs,
)
from tritonlab.engine.inputs import facts as input_facts
from tritonlab.engine.learner import LearnerError, classify, same_file
from tritonlab.engine.protocol import error

_INT_OF_SIZE = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
_FIRST = 8
#: bound when the lab is imported, before any learner file: what takes the judge's tensors with every mode off
_NO_TORCH_FUNCTION = torch._C.DisableTorchFunction
_NO_DISPATCH_MODES = _disable_current_modes


@contextlib.contextmanager
def _without_modes():
    """No TorchFunctionMode, __torch_function__ or TorchDispatchMode of anyone's runs inside: what the judge
    receives is taken by torch itself (probe round 14: a mode left on the stack answered the lab's own
    `detach()` of the output with torch's row sums)."""
    with _NO_TORCH_FUNCTION(), _NO_DISPATCH_MODES():
        yield


class StrArgument(TypeError):
    """Triton's own words on a GPU, with the parameter named (the lab words it: cause "str-argument")."""

    def __init__(self, param: str, value: str):
        super().__init__(f"failed to specialize argument of type: str (parameter {param} = {value!r})")
        self.param, self.value = param, value


def _constexpr_names(launcher) -> set[str] | None:
    """The tl.constexpr parameters of what is being launched: the interpreter's GridExecutor lists their
    names, a JITFunction marks its params; None when neither says."""
    names = getattr(launcher, "constexprs", None)
    if isinstance(names, (list, tuple)) and all(isinstance(n, str) for n in names):
        return set(names)
    params = getattr(launcher, "params", None)
    if params and all(hasattr(p, "is_constexpr") for p in params):
        return {p.name for p in params if p.is_constexpr}
    return None


def _refuse_str_arguments(launcher, given: list) -> None:
    """A str handed to a parameter that is not tl.constexpr: every GPU launch refuses it ("failed to
    specialize argument of type: str", Triton 3.6 and 3.9 alike) while the interpreter takes it, so a file
    passed there and failed on the H200 (tenth session). Refused on both backends, naming the parameter."""
    constexprs = _constexpr_names(launcher)
    if constexprs is None:
        return
    for name, value in given:
        if isinstance(value, str) and name not in constexprs and not str(name).startswith("#"):
            raise StrArgument(str(name), value)


class Provenance:
    """Which storages a learner kernel was handed, their bytes right after the last learner launch, and (on
    the interpreter) every address a learner kernel stored to. A context manager entered around the call."""

    def __init__(
        self,
        learner_file: str,
        backend: str,
        unwatched: set[int] | None = None,
        perturb: tuple[int, str] | None = None,
    ):
        self.learner_file = learner_file
        self.backend = backend
        # (launch number, argument name): that argument's values are changed just before that learner launch
        # (a second run asking whether the output moves with a buffer the kernel was given: `copied`)
        self.perturb = perturb
        # storages never snapshotted: far-rows inputs (4 GiB of mostly untouched pages; never an output)
        self.unwatched = set(unwatched or ())
        self.after: dict[int, torch.UntypedStorage] = {}  # storage ptr -> copy right after the last launch
        self.changed: dict[int, torch.Tensor] = {}  # GPU: storage ptr -> bytes a learner launch changed
        self.first_before: dict[int, torch.UntypedStorage] = {}  # GPU: storage ptr -> bytes before any launch
        self.stores: list[np.ndarray] = []  # interpreter: addresses stored to by learner kernels
        self.read: list[tuple[int, str, str, torch.Tensor]] = []  # (launch, kernel, argument, tensor) given
        self.launch_storages: list[set[int]] = []  # per learner launch: the storages it was given
        self.launch_lines: list[int | None] = []  # per learner launch: the learner's line that launched it
        self._files: dict[str, bool] = {}  # a frame's file name -> whether it is the learner's file
        # interpreter: per learner launch, the storages it actually loaded from (of those it was given), and
        # whether the bounds checker saw it load at all (block-pointer and descriptor loads are not seen)
        self.launch_loaded: list[set[int]] = []
        self.launch_seen_load: list[bool] = []
        self.current_ranges: list[tuple[int, int]] = []  # (start, end) of the storages the running launch got
        # interpreter: every address a learner kernel loaded (up to LOADS_KEPT of them; `loads_whole` says
        # whether all were kept): which elements of an input were never read (`partly_read`)
        self.loads: list[np.ndarray] = []
        self.loads_total = 0
        self.loads_whole = True
        self.in_learner_launch = 0
        self.store_calls = 0  # interpreter: tl.store calls of learner kernels, and the lanes they left on
        self.store_lanes = 0
        self._undo: list = []

    # -- hooks -----------------------------------------------------------------------------------------------

    def _storages(self, args, kwargs) -> dict[int, torch.UntypedStorage]:
        found = {}
        for value in map(memcheck.tensor_of, list(args) + list(kwargs.values())):
            if isinstance(value, torch.Tensor):
                storage = value.untyped_storage()
                found[storage.data_ptr()] = storage
        return found

    def _wrap(self, fn, kernel_of):
        watch = self

        def launch(this, *args, **kwargs):
            kernel = kernel_of(this)
            mine = same_file(memcheck._kernel_file(kernel), watch.learner_file) and not kwargs.get("warmup")
            if not mine:
                return fn(this, *args, **kwargs)
            storages = watch._storages(args, kwargs)
            names = memcheck._arg_names(kernel)
            given = [(names[i] if i < len(names) else f"#{i}", v) for i, v in enumerate(args)] + list(
                kwargs.items()
            )
            _refuse_str_arguments(this, given)
            launch_no = len(watch.launch_storages)
            watch.launch_storages.append(set(storages))
            watch.launch_lines.append(watch._learner_line())
            watch.launch_loaded.append(set())
            watch.launch_seen_load.append(False)
            watch.current_ranges = [(ptr, ptr + s.nbytes()) for ptr, s in storages.items()]
            for name, given_value in given:
                value = memcheck.tensor_of(given_value)
                if isinstance(value, torch.Tensor) and len(watch.read) < 256:
                    watch.read.append((launch_no, memcheck._kernel_name(kernel), str(name), value))
                if isinstance(value, torch.Tensor) and watch.perturb == (launch_no, str(name)):
                    _change_every_value(value)
            before = {}
            if watch.backend == "gpu":
                torch.cuda.synchronize()
                before = {ptr: s.clone() for ptr, s in storages.items() if ptr not in watch.unwatched}
                for ptr, copy in before.items():
                    watch.first_before.setdefault(ptr, copy)
            else:  # what each storage held before the first learner launch (`prefilled`: small cases)
                for ptr, s in storages.items():
                    if ptr not in watch.unwatched and ptr not in watch.first_before:
                        watch.first_before[ptr] = s.clone()
            watch.in_learner_launch += 1
            try:
                return fn(this, *args, **kwargs)
            finally:
                watch.in_learner_launch -= 1
                if watch.backend == "gpu":
                    torch.cuda.synchronize()
                for ptr, storage in storages.items():
                    if ptr in watch.unwatched:
                        continue
                    watch.after[ptr] = storage.clone()
                    if ptr in before:
                        diff = _bytes(before[ptr]) != _bytes(watch.after[ptr])
                        watch.changed[ptr] = diff | watch.changed[ptr] if ptr in watch.changed else diff

        return launch

    def _learner_line(self) -> int | None:
        """The line of the learner's file that is launching now: its innermost frame on the stack."""
        frame = sys._getframe(2)
        while frame is not None:
            name = frame.f_code.co_filename
            if name not in self._files:
                self._files[name] = same_file(name, self.learner_file)
            if self._files[name]:
                return frame.f_lineno
            frame = frame.f_back  # type: ignore[assignment]
        return None

    def bindings(self, inputs: dict, changed: list[str], got) -> dict:
        """Which kernel parameter each changed input, and the returned output, was passed as: [{launch,
        kernel, arg, line}] per name (`line`: the learner's launch line). The judge tells a launch that passes
        its tensors in the wrong order (the kernel stored into an input handed over as its output) from a
        kernel that stores through an input's own pointer."""

        def passed(tensor) -> list[dict]:
            ptr = tensor.untyped_storage().data_ptr()
            found: list[dict] = []
            for launch_no, kernel, name, value in self.read:
                if value.untyped_storage().data_ptr() == ptr and len(found) < 4:
                    line = self.launch_lines[launch_no] if launch_no < len(self.launch_lines) else None
                    found.append({"launch": launch_no, "kernel": kernel, "arg": name, "line": line})
            return found

        out: dict = {"inputs": {}}
        for name in changed[:4]:
            value = inputs.get(name)
            if type(value) is torch.Tensor:
                out["inputs"][name] = passed(value)
        if type(got) is torch.Tensor:
            out["output"] = passed(got)
        return out

    def __enter__(self):
        if self.backend == "interpreter":
            from triton.runtime import interpreter

            self._patch(interpreter.GridExecutor, "__call__", lambda ex: ex.fn)
        else:
            from triton.runtime.jit import JITFunction

            self._patch(JITFunction, "run", lambda jit: jit)
            self._patch_compiled()
        return self

    def _patch_compiled(self) -> None:
        """A launch of a compiled kernel (`k = kernel.warmup(...)`, then `k[grid](...)`, as the persistent
        softmax tutorial does) goes around JITFunction.run: watched the same way, under the @triton.jit
        function that compiled it."""
        try:
            from triton.compiler.compiler import CompiledKernel
        except ImportError:
            return
        original = CompiledKernel.__dict__.get("__getitem__")
        if original is None:
            return
        watch = self

        def getitem(this, grid):
            runner = original(this, grid)
            fn = memcheck._compiled_fn(this)
            if fn is None:
                return runner
            launch = watch._wrap(lambda _fn, *args, **kwargs: runner(*args, **kwargs), lambda jit: jit)
            return lambda *args, **kwargs: launch(fn, *args, **kwargs)

        self._undo.append((CompiledKernel, "__getitem__", original))
        CompiledKernel.__getitem__ = getitem  # type: ignore[method-assign]

    def _patch(self, owner, name, kernel_of):
        original = owner.__dict__[name]
        self._undo.append((owner, name, original))
        setattr(owner, name, self._wrap(original, kernel_of))

    def __exit__(self, *exc):
        while self._undo:
            owner, name, original = self._undo.pop()
            setattr(owner, name, original)
        return False

    # -- facts -----------------------------------------------------------------------------------------------

    def facts(self, got) -> dict:
        """{from_launch, not_stored, not_stored_first, after_changed, after_first} for the returned tensor."""
        if not isinstance(got, torch.Tensor) or type(got) is not torch.Tensor:
            return {"from_launch": False}
        storage = got.untyped_storage()
        ptr = storage.data_ptr()
        if ptr not in self.after or got.numel() == 0:
            return {"from_launch": ptr in self.after, "not_stored": 0, "after_changed": 0}
        itemsize = got.element_size()
        int_dtype = _INT_OF_SIZE[itemsize]
        snapshot = self.after[ptr]
        then = torch.empty(0, dtype=int_dtype, device=got.device).set_(
            snapshot, got.storage_offset(), got.shape, got.stride()
        )
        now = torch.empty(0, dtype=int_dtype, device=got.device).set_(
            storage, got.storage_offset(), got.shape, got.stride()
        )
        after = (then != now).reshape(-1)
        poison = memcheck.is_poison(got).reshape(-1)
        offsets = _element_offsets(got)  # storage element index of each element of the view
        if self.backend == "interpreter":
            stored = self._stored_elements(ptr, storage.nbytes(), itemsize)
            covered = torch.from_numpy(stored)[offsets.cpu()].to(got.device)
        else:
            # A GPU kernel that stores the value already there leaves no trace: an element counts as filled by
            # someone else only when no learner launch changed it and it held non-zero bits before the first
            # (a kernel writing zeros into torch.zeros memory is not blamed; poisoned memory is never zero).
            changed = self.changed.get(ptr)
            usable = (storage.nbytes() // itemsize) * itemsize
            if changed is None:
                covered = torch.ones_like(after)
            else:
                per_elem = changed.view(-1)[:usable].reshape(-1, itemsize)
                first = _bytes(self.first_before[ptr]).view(-1)[:usable].reshape(-1, itemsize)
                covered = (per_elem.any(dim=1) | ~first.ne(0).any(dim=1))[offsets]
        not_stored = (~covered) & (~poison) & (~after)
        extra = {}
        if self.backend == "interpreter":
            extra = {
                "prefilled": self._prefilled(got, ptr),
                # stored by a learner kernel, yet still the poison: values computed from memory nobody wrote
                "stored_poison": int((covered & poison).sum()),
                "loads_output": any(ptr in loaded for loaded in self.launch_loaded),
                "output_arg": next(
                    (str(n)[:60] for _, _, n, t in self.read if t.untyped_storage().data_ptr() == ptr), None
                ),
                "store_calls": self.store_calls,
                # output elements stored more than once (programs that overlap), none for a mask one short
                "stored_twice": self._stored_twice(ptr, storage.nbytes(), itemsize),
                "store_lanes": self.store_lanes,
            }
        return {
            **extra,
            "from_launch": True,
            "not_stored": int(not_stored.sum()),
            "not_stored_first": [int(i) for i in torch.nonzero(not_stored).reshape(-1)[:_FIRST].tolist()],
            "after_changed": int(after.sum()),
            "after_first": [int(i) for i in torch.nonzero(after).reshape(-1)[:_FIRST].tolist()],
        }

    def _prefilled(self, got, ptr: int) -> bool:
        """Interpreter: the output already held its final values (not all zero bits, no poison) before the
        first learner launch, e.g. written by an autotune Config pre_hook or the wrapper; with `loads_output`
        the judge says the kernel only passed them through."""
        first = self.first_before.get(ptr)
        if first is None:
            return False
        was = torch.empty(0, dtype=got.dtype, device=got.device).set_(
            first, got.storage_offset(), got.shape, got.stride()
        )
        bits = _INT_OF_SIZE[got.element_size()]
        old, new = was.view(bits), got.view(bits)
        return bool(old.ne(0).any()) and not bool(memcheck.is_poison(was).any()) and bool(old.eq(new).all())

    def unread(self, inputs: dict, got) -> list[str]:
        """Interpreter: the inputs no learner launch loaded from. Said only when the bounds checker saw every
        launch's loads (block-pointer and descriptor loads are not seen) and every storage a launch loaded is
        an input's, the output's, or one a learner kernel wrote: a storage torch made (`b.contiguous()`) may
        be an input's copy, and then nothing is said."""
        if self.backend != "interpreter" or not self.launch_loaded or not all(self.launch_seen_load):
            return []
        ptrs = {
            name: value.untyped_storage().data_ptr()
            for name, value in inputs.items()
            if type(value) is torch.Tensor and value.numel()
        }
        loaded: set[int] = set().union(*self.launch_loaded)
        known = set(ptrs.values())
        if isinstance(got, torch.Tensor):
            known.add(got.untyped_storage().data_ptr())
        given = {t.untyped_storage().data_ptr(): t for _, _, _, t in self.read}
        for ptr in loaded - known:
            tensor = given.get(ptr)
            if tensor is None:
                return []
            storage = tensor.untyped_storage()
            if not self._written(ptr, storage.nbytes(), tensor.element_size()):
                return []
        return [name for name, ptr in ptrs.items() if ptr not in loaded][:4]

    #: load addresses kept for `partly_read` (8 bytes each: 64 MiB at most)
    LOADS_KEPT = 1 << 23

    def partly_read(self, inputs: dict) -> list[dict]:
        """Interpreter: the inputs that learner launches loaded from, but not every element of: a chunk loop
        whose chunks overlap (`cols = c + tl.arange(...)`) loads as many lanes as the row has elements, yet
        never reaches its end. Each {"input", "unread" (elements never loaded), "numel", "first", "last" (the
        indices of the first and last of them)}. Said only when the bounds checker saw every launch's loads
        and kept every address."""
        if self.backend != "interpreter" or not self.launch_loaded or not all(self.launch_seen_load):
            return []
        if not self.loads_whole or not self.loads:
            return []
        loaded_storages: set[int] = set().union(*self.launch_loaded)
        found: list[dict] = []
        addrs = None
        for name, value in inputs.items():
            if type(value) is not torch.Tensor or not value.numel() or value.numel() > self.LOADS_KEPT:
                continue
            base = value.untyped_storage().data_ptr()
            if base not in loaded_storages or base in self.unwatched or value.device.type != "cpu":
                continue
            if addrs is None:
                addrs = np.unique(np.concatenate(self.loads))
            size = value.element_size()
            # numel offsets, whatever the span (far rows: 2^30 elements apart)
            offsets: np.ndarray = np.full((), int(value.storage_offset()), dtype=np.int64)
            for extent, stride in zip(value.shape, value.stride(), strict=True):
                offsets = offsets[..., None] + np.arange(int(extent), dtype=np.int64) * int(stride)
            elements = offsets.reshape(-1).astype(np.uint64) * np.uint64(size) + np.uint64(base)
            never = ~np.isin(elements, addrs)
            count = int(never.sum())
            if 0 < count < value.numel():
                where = np.nonzero(never)[0]
                index = [
                    [int(i) for i in np.unravel_index(int(w), tuple(value.shape))]
                    for w in (where[0], where[-1])
                ]
                found.append(
                    {
                        "input": str(name)[:60],
                        "unread": count,
                        "numel": int(value.numel()),
                        "first": index[0],
                        "last": index[1],
                    }
                )
        return found[:4]

    def copied(self, got, inputs: dict) -> dict | None:
        """The answer made outside the kernels and only copied by one: a tensor a learner launch was given,
        that no learner kernel wrote and that is not an input, holding exactly the returned values
        (`answer = x + y` in torch or numpy, then a copy kernel). A launch also given the inputs may be a
        kernel checking itself against a reference (t37) or a copy that loads an input to look busy (probe
        round 12): such a find comes back with `beside_inputs` and its `launch`, for a second run to decide
        (`_copy_reached`). None when there is none, and never for an exercise whose answer equals an input (a
        copy is then what is asked)."""
        if not isinstance(got, torch.Tensor) or type(got) is not torch.Tensor or got.numel() == 0:
            return None
        inputs_storage = {
            v.untyped_storage().data_ptr() for v in inputs.values() if isinstance(v, torch.Tensor)
        }
        if any(
            isinstance(v, torch.Tensor) and (_same(v, got) or _cast_same(v, got)) for v in inputs.values()
        ):
            return None  # the answer is an input's values (a copy, or a cast, is what the lesson asks)
        mine = got.untyped_storage().data_ptr()
        beside = None
        for launch_no, kernel, name, value in self.read:
            storage = value.untyped_storage()
            ptr = storage.data_ptr()
            if ptr in (mine, *inputs_storage) or value.numel() != got.numel():
                continue  # (checked before the costlier "did a kernel write it")
            # that launch read the inputs too: the reference was for checking, not copying. On the
            # interpreter "read" means loaded from (inputs handed over but never loaded do not count); on a
            # GPU, handed over (the interpreter audit of a GPU pass asks the stricter question)
            strict = self.backend == "interpreter" and self.launch_seen_load[launch_no]
            read = self.launch_loaded[launch_no] if strict else self.launch_storages[launch_no]
            with_inputs = bool(read & inputs_storage)
            if with_inputs and beside is not None:
                continue
            if self._written(ptr, storage.nbytes(), value.element_size()):
                continue  # a kernel of theirs computed it (a two-stage kernel's scratch)
            # the same values, NaN where NaN; held in another dtype or shape (an int64 map, a float64 answer
            # that a kernel only narrowed: probe round 13), the same once cast to the output's
            exact = value.shape == got.shape and value.dtype == got.dtype
            if _same(value, got) if exact else _cast_same(value, got):
                cast = {} if exact else {"cast": True}
                if not with_inputs:
                    return {"kernel": kernel, "argument": name, **cast}
                beside = {
                    "kernel": kernel,
                    "argument": name,
                    "beside_inputs": True,
                    "launch": launch_no,
                    **cast,
                }
        return beside

    def _written(self, ptr: int, nbytes: int, itemsize: int) -> bool:
        if self.backend == "interpreter":
            return bool(self._stored_elements(ptr, nbytes, itemsize).any())
        changed = self.changed.get(ptr)
        return bool(changed is not None and bool(changed.any()))

    def _stored_twice(self, base: int, nbytes: int, itemsize: int) -> int:
        counts = np.zeros(nbytes // itemsize, dtype=np.int64)
        for addrs in self.stores:
            inside = addrs[(addrs >= np.uint64(base)) & (addrs < np.uint64(base + nbytes))]
            if inside.size:
                np.add.at(counts, ((inside - np.uint64(base)) // np.uint64(itemsize)).astype(np.int64), 1)
        return int((counts > 1).sum())

    def _stored_elements(self, base: int, nbytes: int, itemsize: int) -> np.ndarray:
        stored = np.zeros(nbytes // itemsize, dtype=bool)
        for addrs in self.stores:
            inside = addrs[(addrs >= np.uint64(base)) & (addrs < np.uint64(base + nbytes))]
            if inside.size:
                stored[((inside - np.uint64(base)) // np.uint64(itemsize)).astype(np.int64)] = True
        return stored


def _change_every_value(t: torch.Tensor) -> None:
    """In place: every element becomes another value (1, or 2 where it was 1; a bool flips), NaN and inf
    included, so an output copied from `t` differs everywhere."""
    if t.numel() == 0:
        return
    if t.dtype == torch.bool:
        t.logical_not_()
    else:  # complex too
        one = torch.ones((), dtype=t.dtype, device=t.device)
        t.copy_(torch.where(t == one, one + one, one))


def _bytes(storage: torch.UntypedStorage) -> torch.Tensor:
    return torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage)


def _element_offsets(t: torch.Tensor) -> torch.Tensor:
    if t.numel() == 0:
        return torch.zeros(0, dtype=torch.int64, device=t.device)
    span = 1 + sum(int(s - 1) * int(st) for s, st in zip(t.shape, t.stride(), strict=True))
    index = torch.arange(span, dtype=torch.int64, device=t.device)
    return torch.as_strided(index, t.shape, t.stride()).reshape(-1).add(t.storage_offset())


class StoreRecorder(memcheck.InterpreterMemcheck):
    """The interpreter's bounds checker, also noting every address a learner kernel stores to."""

    def __init__(self, learner_file: str, provenance: Provenance):
        super().__init__(learner_file)
        self.provenance = provenance

    def _note_access(self, launch, op, access, addrs) -> None:
        """The checker's own record (races), then the provenance's, from the addresses the checker already
        took from the pointers and the mask."""
        super()._note_access(launch, op, access, addrs)
        watch = self.provenance
        if not watch.in_learner_launch or access not in ("store", "load"):
            return
        if access == "store":
            watch.stores.append(addrs.copy())
            watch.store_calls += 1
            watch.store_lanes += int(addrs.size)
            return
        if not watch.launch_loaded:
            return
        watch.launch_seen_load[-1] = True
        if watch.loads_whole and watch.loads_total + addrs.size <= watch.LOADS_KEPT:
            watch.loads.append(addrs.copy())
            watch.loads_total += int(addrs.size)
        else:
            watch.loads_whole = False
        loaded = watch.launch_loaded[-1]
        for start, end in watch.current_ranges:
            if start not in loaded and bool(((addrs >= np.uint64(start)) & (addrs < np.uint64(end))).any()):
                loaded.add(start)


# ---- the job -----------------------------------------------------------------------------------------------


def run(job: dict, backend: str, send) -> None:
    args = {k: job.get(k) for k in ("exercise", "file", "lessons_dir", "kernels_dir")}
    if isinstance(job.get("source"), str):  # the judge sends the text: the runner gets no path to the drafts
        with open(job["file"], "w", encoding="utf-8") as handle:
            handle.write(job["source"])
    cases = job.get("cases") or []
    global _sharer
    if job.get("ipc") and backend == "gpu" and cuda_ipc.available():
        free, _total = torch.cuda.mem_get_info()
        _sharer = cuda_ipc.Sharer(limit=min(4 << 30, free // 8))
    # Each case's inputs are rebuilt and checked against the judge's digest. Up to PREBUILD_BYTES of them
    # before any learner code runs (a file that patches torch at import cannot change them); the rest (the
    # capstones' GPU cases reach 2 GB) just before their case, where such a patch can only make them differ
    # from the digest: an internal error, never a verdict on other data.
    started = time.perf_counter()
    exercise = exercise_env.catalog(args["lessons_dir"], args["kernels_dir"]).exercise(args["exercise"])
    device = torch.device("cuda") if backend == "gpu" else torch.device("cpu")
    built: list[tuple[dict | None, list[str]] | None] = []
    held = 0
    for case in cases:
        if held >= PREBUILD_BYTES:
            built.append(None)
            continue
        values, differ = _rebuild(exercise, case, device)
        built.append((values, differ))
        held += _nbytes(values)
    inputs_ms = round((time.perf_counter() - started) * 1e3, 3)
    import tritonlab.engine.outputs  # noqa: F401 - imported before the file, so the snapshot covers it
    from tritonlab.engine import integrity

    lab_code = integrity.snapshot(backend)  # the lab as it is before the learner's file runs
    integrity.take_seen_at_launch()  # what earlier calls in this process noted is not this file's
    exercise_env.take_hooks_left()
    before = exercise_env.environment()  # hooks and torch's mode stacks before the file's import
    try:
        loaded = exercise_env.load(args, backend)
    except LearnerError as exc:
        send({"type": "load-error", "error": exc.info})
        return
    left = exercise_env.restore_environment(before)
    if left and cases:  # a hook or a torch mode the import left in place runs inside every check after it
        send({"type": "event", "case": 0})
        send({"type": "case", "index": 0, "diagnoses": [], "error": _tampered(left, at="import")})
        return
    if (
        isinstance(job.get("dry"), dict)
        and backend == "gpu"
        and _dry_stops(loaded, job["dry"], lab_code, send)
    ):
        return
    for index, case in enumerate(cases):
        send({"type": "event", "case": index})
        ready = built[index]
        values, differ = ready if ready is not None else _rebuild(exercise, case, device)
        built[index] = None  # the case holds the only reference: freed after it
        facts: dict[str, Any]
        if differ or values is None:
            facts = {"diagnoses": [], "error": _inputs_differ(differ or ["?"])}
        elif case.get("plan"):
            facts = run_plan_case(loaded, case, backend, values)
        else:
            facts = run_case(loaded, case, backend, values)
            if (
                index == 0
            ):  # facts about the file itself (autotune key and configs) travel with the first case
                facts["file_facts"] = contracts.check_file(loaded.exercise, loaded.module)
        if index == 0:
            facts["inputs_ms"] = inputs_ms  # what rebuilding every case's inputs took (scripts/judge_cost.py)
        tampered = _tampering(lab_code)
        if tampered:  # facts recorded by rewritten code are worth nothing: the case stops here
            facts = {"diagnoses": [], "error": tampered}
        send(dict(facts, type="case", index=index))
        if facts.get("error"):
            return
    for index, reject in enumerate(job.get("rejects") or []):
        facts = run_reject(loaded, reject, backend)
        tampered = _tampering(lab_code)
        if tampered:
            send({"type": "reject", "index": index, "error": tampered})
            return
        send(dict(facts, type="reject", index=index))
    if isinstance(job.get("dry"), dict) and backend == "interpreter":
        facts = run_dry(loaded, job["dry"], backend)
        tampered = _tampering(lab_code)
        send({"type": "dry", "error": tampered} if tampered else dict(facts, type="dry"))


def _dry_stops(loaded, dry: dict, lab_code, send) -> bool:
    """On a GPU, the launch-only call before any case: a wrapper whose block covers the whole of the loop
    contract's dimension at the GPU's size (one program holding a 131,072-wide row) may not finish compiling
    in the verify's time, so the cases are not run and the judge names `loop-once` from these launches. True
    when the runner stops here (that, or the lab's code rewritten during the call)."""
    facts = run_dry(loaded, dry, "gpu")
    tampered = _tampering(lab_code)
    if tampered:
        send({"type": "dry", "error": tampered, "stopped": "tampered"})
        return True
    param, block = (str(x) for x in (loaded.exercise.verify.contracts or {}).get("loop") or ["", ""])
    widest = contracts.widest_loop_launch(facts.get("launches") or [], block, loaded.file, same_file)
    if widest is not None and contracts.loops_once(dry["params"].get(param), widest[0]):
        facts["stopped"] = "loop-once"
    send(dict(facts, type="dry"))
    return bool(facts.get("stopped"))


def run_dry(loaded, dry: dict, backend: str) -> dict:
    """The wrapper called once at a GPU case's size (the lesson's `loop` contract asks whether its loop
    streams there) with every launch recorded and none run; `launches` as in a case, and `skipped` when the
    inputs cannot be made or the wrapper raised (it may read what a kernel never wrote): the launches made
    before the raise are still sent, and judged (their blocks were chosen by then)."""
    exercise = loaded.exercise
    try:
        values = case_inputs(exercise, dry["params"], dry["dtype"], 0, loaded.device, {})
    except Exception as exc:  # noqa: BLE001 - too big for this runner, or lesson data: nothing to say
        return {"skipped": f"inputs: {type(exc).__name__}"}
    positional, optional = call_args(exercise, values)
    call = exercise_env.LearnerCall(loaded, backend, watchers=[memcheck.launch_only()])
    try:
        call(*positional, **optional)
    except BaseException as exc:  # noqa: BLE001 - the kernels did not run: the wrapper's own reading failed
        if contracts.is_real_interrupt(exc):
            raise
        return {"skipped": f"raised: {type(exc).__name__}", "launches": [_launch(x) for x in call.launches]}
    return {"launches": [_launch(launch) for launch in call.launches]}


_sharer: cuda_ipc.Sharer | None = None  # set by run() when the judge offers CUDA IPC (a GPU verify)


def _save(payload: dict, path: str, facts: dict) -> None:
    """Hand the case's tensors to the judge: CUDA tensors through CUDA IPC where the judge offered it
    (facts["shared"]: descriptors; engine/cuda_ipc.py), the rest through a file. No CRC: the file lives for
    one request on this machine, and the judge re-validates what it reads (weights_only). Records save_ms."""
    began = time.perf_counter()
    with _without_modes():
        _save_plain(payload, path, facts)
    facts["save_ms"] = round((time.perf_counter() - began) * 1e3, 3)


def _save_plain(payload: dict, path: str, facts: dict) -> None:
    rest, shared = _sharer.split(payload) if _sharer is not None else (payload, {})
    if shared:
        facts["shared"] = shared
    if shared and not _has_tensor(rest):
        facts["rest"] = rest  # only empty dicts are left ({"inputs": {}}): no file
    else:
        try:
            from torch.utils.serialization import config  # torch >= 2.6

            config.save.compute_crc32 = False
        except (ImportError, AttributeError):
            pass
        torch.save(rest, path)


def _has_tensor(tree) -> bool:
    if isinstance(tree, dict):
        return any(_has_tensor(v) for v in tree.values())
    return isinstance(tree, torch.Tensor)


def warm_up(backend: str, scratch: str) -> None:
    """One case of the shipped vector-add solution (the lab's own code, never a learner's) through the very
    path a verify takes, on tiny inputs in each dtype the lessons use: torch's first use of each op in a
    process (CUDA module loading on a GPU) is paid here, by a runner that waits for its job, not by the
    learner's first case (0.21 s of inputs and checks on a fresh GPU runner, 0.03 s after this; H200,
    2026-12-03). Everything it made is dropped."""
    loaded = exercise_env.load({"exercise": "5", "solution": True}, backend)
    try:
        for dtype in ("float32", "float16", "bfloat16"):
            values = case_inputs(loaded.exercise, {"n": 97}, dtype, 0, loaded.device)
            digest(values)
            if dtype == "bfloat16":  # the add's cases are fp32 and fp16; bf16 inputs and digest still warm
                continue
            run_case(
                loaded,
                {
                    "params": {"n": 97},
                    "dtype": dtype,
                    "kwargs": {},
                    "output": os.path.join(scratch, f"warm-{dtype}.pt"),
                },
                backend,
                values,
            )
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(scratch, f"warm-{dtype}.pt"))
    finally:
        sys.modules.pop(getattr(loaded.module, "__name__", ""), None)


def _rebuild(exercise, case: dict, device) -> tuple[dict | None, list[str]]:
    """One case's inputs, as the judge made them; and the names whose bits differ from the judge's digest."""
    values = case_inputs(
        exercise, case["params"], case["dtype"], case.get("seed") or 0, device, case.get("kwargs")
    )
    wanted = case.get("digest") or {}
    mine = digest(values)
    return values, sorted(name for name in set(wanted) | set(mine) if wanted.get(name) != mine.get(name))


PREBUILD_BYTES = 1 << 29  # 512 MiB of inputs made before the learner's file loads


def _nbytes(values: dict | None) -> int:
    return sum(v.numel() * v.element_size() for v in (values or {}).values() if isinstance(v, torch.Tensor))


_HOOKS = ("sys.", "threading.", "TorchFunctionMode ", "TorchDispatchMode ")
_LANGUAGE = "triton.language."


def _tampering(lab_code) -> dict | None:
    """The `tampered` error after a learner call, or None: a hook present at one of its launches, the lab's
    code or a watched library (Triton's language included) not as the snapshot saw it, at a launch or now,
    and hooks or torch modes the call left installed."""
    from tritonlab.engine import integrity

    at_launch = integrity.take_seen_at_launch()
    hooks = [name for name in at_launch if name.startswith(_HOOKS)]
    names: list[str] = []
    for name in hooks + integrity.changed(lab_code) + at_launch + exercise_env.take_hooks_left():
        if name not in names:
            names.append(name)
    if not names:
        return None
    return _tampered(names, at="launch" if hooks else "return")


def _tampered(names: list[str], at: str = "return") -> dict:
    """`what`: "hook" (a trace/profile hook or a torch mode: `at` "launch" when one was present while a kernel
    ran, "import" when the file's import left it, "return" when the call did), "library" (torch, numpy,
    Python's builtins or Triton's language rewritten), else "lab" (the lab's own code)."""
    if any(n.startswith(_HOOKS) for n in names):
        what = "hook"
    elif any(n.startswith(_LANGUAGE) or not n.startswith(("tritonlab.", "triton.")) for n in names):
        what = "library"
    else:
        what = "lab"
    if what == "hook":
        text = {
            "launch": "a trace or profile hook was installed while a kernel of the learner ran: it can "
            "rewrite what the kernel computes: ",
            "import": "the learner's file left a hook or a torch mode installed when it was imported, which "
            "would run inside the lab's checks: ",
        }.get(at, "the learner's call left a hook installed that would run inside the lab's checks: ")
    elif what == "library" and all(n.startswith(_LANGUAGE) for n in names):
        text = "the learner's file replaced Triton's language functions, which every kernel runs: "
    else:
        text = {
            "library": "the learner's file replaced functions the lab's checks use: ",
            "lab": "the learner's file changed the lab's own code: ",
        }[what]
    extra = {"at": at} if what == "hook" else {}
    return error("tampered", text + ", ".join(names[:8]), None, changed=names[:8], what=what, **extra)


def _inputs_differ(names: list[str]) -> dict:
    text = "the runner rebuilt inputs that differ from the judge's: " + ", ".join(names)
    return error("runtime", text, None, cause="internal", exception=text)


def _cast_of_kernel_output(source, got, watch) -> Any:
    """`source` when `got` is its dtype cast and `source` is memory a learner launch was given, holding now
    what it held when cast (bit for bit after the same cast again); else None."""
    if type(source) is not torch.Tensor or source.untyped_storage().data_ptr() not in watch.after:
        return None
    try:
        again = source.to(got.dtype)
    except Exception:  # noqa: BLE001 - a cast torch refuses now: not the cast the wrapper made
        return None
    bits = _INT_OF_SIZE.get(got.element_size())
    if bits is None or again.shape != got.shape:
        return None
    return source if torch.equal(again.view(bits), got.view(bits)) else None


#: (learner file, dtype, pinned tile) -> the case of this runner (one verify) whose autotuner times configs
_TIMING_CASE: dict[tuple[str, str, str], str] = {}


def _timing_case(loaded, case: dict, lab: dict) -> bool:
    """Whether this pinned autotune case lets the autotuner time its configs (the pinned one and a twin, and
    in a "largest" case the file's other GPU configs) before the launch, as a GPU's autotuner does: the first
    case of each dtype and pinned tile, and a second run of that same case, so that both runs do the same
    work. What the timing runs show — a kernel that accumulates into its output without a reset, a tl.dot too
    small for the GPU in another config — the config and the dtype decide, and the first case, the tiniest,
    makes every tile ragged; later cases launch the pinned config once (each timed run cost a launch)."""
    which = lab.get("autotune")
    if not which:
        return False
    key = json.dumps([case.get("params"), case.get("seed"), case.get("kwargs")], sort_keys=True, default=str)
    return _TIMING_CASE.setdefault((str(loaded.file), str(case.get("dtype")), str(which)), key) == key


def _pinned(exercise, loaded, case: dict, lab: dict):
    """contracts.pinned_autotune for this case, timing runs as `_timing_case` says."""
    return contracts.pinned_autotune(
        exercise, loaded.module, lab.get("autotune"), timed=_timing_case(loaded, case, lab)
    )


@contextlib.contextmanager
def _triton_warnings(learner_file: str, into: list):
    """Python warnings raised inside Triton's own code (the interpreter's numpy: "overflow encountered in
    cast", "divide by zero encountered in fmod") are recorded with the learner's line that was running
    (the innermost frame of their file) instead of printed: they are not the learner's output."""
    import warnings

    try:
        import triton

        root = os.path.dirname(os.path.abspath(triton.__file__)) + os.sep
    except Exception:  # noqa: BLE001 - no triton: nothing of its to tell apart
        yield
        return

    def show(message, category, filename, lineno, file=None, line=None):
        if not os.path.abspath(str(filename)).startswith(root):
            return previous(message, category, filename, lineno, file, line)
        frame, at = sys._getframe(1), None
        while frame is not None:
            if same_file(frame.f_code.co_filename, learner_file):
                at = frame.f_lineno
                break
            frame = frame.f_back
        record = {
            "category": getattr(category, "__name__", "Warning"),
            "message": str(message)[:200],
            "line": at,
        }
        if record not in into and len(into) < 8:
            into.append(record)
        return None

    with warnings.catch_warnings():  # restores showwarning and the filters afterwards
        previous = warnings.showwarning
        # every time, not once per location: a warning of an earlier (passing) case must not hide this one's
        warnings.filterwarnings("always", module=r"triton\.")
        warnings.showwarning = show
        yield


def _second_run_warnings(learner_file: str):
    """A second run of a case (to refine a cause: padding left 0, torch's values shifted, a buffer changed)
    repeats what the first run did, whose Triton warnings are already recorded: its own are dropped, not
    printed among the learner's output."""
    return _triton_warnings(learner_file, [])


def _oob_input(err: dict, watch, inputs: dict) -> None:
    """An out-of-bounds report whose mask bounds are the faulting tensor's sizes in another order
    (`permuted_bounds`): names the case input that tensor is (the same storage, shape and strides handed to
    the faulting kernel's argument), whose shape is the lab's — the judge then blames the sizes passed."""
    detail = err.get("detail") if isinstance(err, dict) else None
    if not isinstance(detail, dict) or not isinstance(detail.get("permuted_bounds"), dict):
        return
    arg, kernel = detail.get("arg"), detail.get("kernel")
    given = next((v for _, k, n, v in reversed(watch.read) if n == arg and k == kernel), None)
    if not isinstance(given, torch.Tensor):
        return
    for name, value in inputs.items():
        if (
            type(value) is torch.Tensor
            and value.data_ptr() == given.data_ptr()
            and value.shape == given.shape
            and value.stride() == given.stride()
        ):
            detail["permuted_bounds"]["input"] = str(name)
            return


def run_case(loaded, case: dict, backend: str, values: dict) -> dict:
    exercise = loaded.exercise
    facts: dict[str, Any] = {"diagnoses": []}
    placing = time.perf_counter()
    allocator = memcheck.GuardedAllocator(loaded.device)
    inputs = place_inputs(exercise, case["params"], case["dtype"], values, allocator, case.get("kwargs"))
    facts["place_ms"] = round((time.perf_counter() - placing) * 1e3, 3)
    watch = Provenance(loaded.file, backend, unwatched=allocator.sparse_storages())
    checker = StoreRecorder(loaded.file, watch) if backend == "interpreter" else None
    call = exercise_env.LearnerCall(loaded, backend, allocator, checker=checker, watchers=[watch])
    work = torch_work.TorchWork(loaded.file, inputs, lambda: call.launches)
    call.watchers.append(work)
    variant, lab = contracts.directives(case.get("kwargs") or {})
    kwargs, dropped = contracts.split_kwargs(loaded.wrapper, variant)
    positional, optional = call_args(exercise, inputs)
    # an optional input, or a keyword the reference reads (kw.get("activation")), that the wrapper does not
    # take: the case cannot be run as the lesson means it; said as such, never dropped
    missing = contracts.missing_keywords(exercise, loaded.wrapper, optional, dropped)
    if missing:  # the judge words it (kind keyword-missing)
        facts["missing_keywords"] = missing
        return facts
    if dropped:  # a note, not a failure: the wrapper picks its own tiles
        facts["notes"] = [contracts.tiles_not_varied(dropped, exercise.entry)]
    declined = getattr(allocator, "far_rows_declined", None)
    if declined:  # a GPU too small for the far-rows layout: the case ran with contiguous rows
        name = declined.pop("input")
        facts.setdefault("notes", []).append(contracts.far_rows_contiguous(name, declined))
    began = time.perf_counter()
    pinned = None
    warned: list[dict] = []
    facts["interpreter_warnings"] = warned
    try:
        with _pinned(exercise, loaded, case, lab) as pinned, _triton_warnings(loaded.file, warned):
            got = call(*positional, **optional, **kwargs)
        if pinned and pinned.get("@benched"):  # the autotuner timed the pinned config and its twin first
            facts["autotune_benched"] = int(pinned["@benched"])
        if pinned:  # the config this case pinned: a fact that ran under another config names that one
            facts["autotune_config"] = {k: v for k, v in pinned.items() if not str(k).startswith("@")}
    except BaseException as exc:  # even BaseException or sys.exit: the learner's line, not a dead runner
        if contracts.is_real_interrupt(exc):
            raise
        facts["error"] = classify(exc, loaded.file)
        contracts.explain_shape_error(exc, facts["error"], loaded.file)
        contracts.explain_config_error(pinned, facts["error"], loaded.file)
        _oob_input(facts["error"], watch, inputs)
        facts["launches"] = [_launch(launch) for launch in call.launches]
        return facts
    facts["ms_wall"] = round((time.perf_counter() - began) * 1e3, 3)
    checking = time.perf_counter()
    _call_facts(facts, call, allocator)
    output_spec = exercise.verify.output
    if output_spec.startswith("inplace:"):
        got = inputs[output_spec.split(":", 1)[1]]
    facts["returned"] = type(got).__name__ if type(got) is not torch.Tensor else "Tensor"
    facts["returned_tensor"] = isinstance(got, torch.Tensor)  # a subclass too: the judge names it
    facts["provenance"] = watch.facts(got)
    written = got  # what a learner kernel wrote: the returned tensor, or what it is a cast of
    if facts["provenance"].get("from_launch") is not True and type(got) is torch.Tensor:
        source = _cast_of_kernel_output(work.cast_source(got), got, watch)
        if source is not None:  # `return out32.to(x.dtype)`: the wrapper cast its kernel's output
            written = source
            facts["provenance"] = dict(watch.facts(source), cast_from=str(source.dtype).replace("torch.", ""))
    if output_spec.startswith("inplace:"):  # the output is an input: it held values before any launch
        facts["provenance"].pop("prefilled", None)
    unread = watch.unread(inputs, written)
    if unread:  # the judge names it only for an output whose values no other pattern explains
        facts["provenance"]["unread"] = unread
    partly = watch.partly_read(inputs)
    if partly:  # the judge says it instead of "read all of its input" (a size threshold)
        facts["provenance"]["partly_read"] = partly
    if not output_spec.startswith("inplace:") and type(got) is torch.Tensor and got.numel():
        same = [
            k
            for k, v in inputs.items()
            if type(v) is torch.Tensor and v.data_ptr() == got.data_ptr() and v.shape == got.shape
        ]
        if same:  # `return x`: the judge says so before anything about who wrote it
            facts["provenance"]["returned_input"] = same[0]
    if work.found:  # torch computed on the inputs what the exercise asks a kernel to compute
        facts["torch_work"] = work.found
    # a computed buffer handed beside its inputs: a reference to check against, unless the output moves when
    # that buffer does (a "NaN guard" that stores torch's answer)
    if (
        work.excused
        and not work.found
        and type(got) is torch.Tensor
        and _excused_reached(loaded, case, backend, values, got, lab, kwargs, call.launches)
    ):
        facts["torch_work"] = work.excused
    copied = watch.copied(written, inputs)
    if copied is not None and "launch" in copied:  # handed beside the inputs: a reference to check against
        at = (copied.pop("launch"), str(copied["argument"]))  # (t37) unless the output moves with it;
        first = call.launches
        if "torch_work" in facts or not _copy_reached(
            loaded, case, backend, values, got, lab, kwargs, at, first
        ):
            copied = None  # torch-work tells the same story with torch's line
    if copied is not None and copied.pop("cast", False) and "torch_work" in facts:
        copied = None  # a cast copy of what torch computed: torch-work names torch's line (probe round 9)
    if copied is not None:
        facts["provenance"]["copied"] = copied
    if work.device_found:  # a kernel was given a buffer allocated with no device= (the CPU on a GPU box)
        facts["default_device"] = work.device_found
    mine = [launch for launch in call.launches if same_file(launch.get("file"), loaded.file)]
    if isinstance(got, torch.Tensor):  # layout, knobs and input storage need the runner's own memory
        facts["contracts"] = contracts.check_case(
            exercise, case["params"], kwargs, inputs, got, mine, loaded.file
        )
    facts["block_guess"] = _block_size_guess(loaded)
    # Only inputs that no longer hold the judge's values travel back (the judge names the change): a GPU case
    # of 16M elements then moves one tensor, not three.
    payload: dict[str, Any] = {
        "inputs": {
            k: _compact(v) for k, v in inputs.items() if type(v) is torch.Tensor and not _same(v, values[k])
        }
    }
    facts["inputs_returned"] = sorted(payload["inputs"])
    if payload["inputs"]:  # the kernel parameters the changed inputs and the output were passed as
        facts["bindings"] = watch.bindings(inputs, sorted(payload["inputs"]), got)
    if call.checker is not None and facts["stats"].get("padded") and type(got) is torch.Tensor:
        padding = _padding_made_nonfinite(loaded, case, backend, values, got, lab, kwargs)
        if padding is not None:  # the judge names the load without other= only when it is the cause
            facts["padding_nonfinite"] = padding
    facts["check_ms"] = round((time.perf_counter() - checking) * 1e3, 3)  # guards, provenance, contracts
    if type(got) is torch.Tensor:
        payload["out"] = _compact(got)
    _save(payload, case["output"], facts)
    return facts


def _call_facts(facts: dict, call, allocator) -> None:
    """What a finished learner call left to record: its launches, whether they were bounds-checked (with the
    checker's counts), and the guard bytes around each output."""
    facts["launches"] = [_launch(launch) for launch in call.launches]
    facts["checked"] = bool(call.checked)
    if call.checker is not None:
        stats = call.checker.stats.to_dict()
        stats.pop("launches", None)
        facts["stats"] = stats
    facts["guards"] = allocator.check()


def _excused_reached(
    loaded, case: dict, backend: str, values: dict, got, lab: dict, kwargs: dict, first: list
) -> bool:
    """Run the case again with every value torch computes from the inputs on a learner line shifted by 1: True
    when the output changed (it was made of torch's values), or when that run did not launch what the first
    run (its launches: `first`) did. A second run that raises (a kernel asserting against its reference) or
    cannot be compared is no evidence: False."""

    def perturbed(inputs, call, allocator):
        call.watchers.append(torch_work.TorchWork(loaded.file, inputs, lambda: call.launches, perturb=True))

    return _moved_in_second_run(loaded, case, backend, values, got, lab, kwargs, perturbed, first)


def _copy_reached(
    loaded, case: dict, backend: str, values: dict, got, lab: dict, kwargs: dict, at, first: list
) -> bool:
    """Run the case again with the values of the argument `at` = (launch number, name) changed just before
    that learner launch: True when the output changed with them (the kernel copied that buffer, even if it
    also loaded the inputs), or when that run did not launch what the first run (`first`) did. A second run
    that raises (a kernel asserting against its reference) or cannot be compared is no evidence: False."""

    def perturbed(inputs, call, allocator):
        call.watchers.append(
            Provenance(loaded.file, backend, unwatched=allocator.sparse_storages(), perturb=at)
        )

    return _moved_in_second_run(loaded, case, backend, values, got, lab, kwargs, perturbed, first)


def _moved_in_second_run(loaded, case, backend, values, got, lab, kwargs, perturbed, first: list) -> bool:
    """The case run again on fresh inputs, `perturbed(inputs, call, allocator)` adding the watcher that
    changes something; True when the output differs from `got` or when the run is no evidence that it would
    not (`_not_the_same_work`: it skipped the first run's kernels), False when it is the same, the run raised
    or the outputs cannot be compared."""
    exercise = loaded.exercise
    allocator = memcheck.GuardedAllocator(loaded.device)
    inputs = place_inputs(exercise, case["params"], case["dtype"], values, allocator, case.get("kwargs"))
    positional, optional = call_args(exercise, inputs)
    call = exercise_env.LearnerCall(loaded, backend, allocator)
    perturbed(inputs, call, allocator)
    try:
        with _pinned(exercise, loaded, case, lab), _second_run_warnings(loaded.file):
            again = call(*positional, **optional, **kwargs)
    except Exception:  # noqa: BLE001 - the first run's facts stand; this one only refines a cause
        return False
    output_spec = exercise.verify.output
    if output_spec.startswith("inplace:"):
        again = inputs[output_spec.split(":", 1)[1]]
    if _not_the_same_work(first, call.launches, [got], [again], loaded.file):
        return True  # "the output did not move" says nothing about a run that did not run the kernels
    if type(again) is not torch.Tensor or again.shape != got.shape or again.dtype != got.dtype:
        return False
    return not _same(again.detach().to(got.device), got.detach())


def _learner_kernels(launches: list, learner_file: str, held=None) -> set:
    """The learner's kernels among `launches`; with `held` (a tensor), those handed memory of its storage."""
    found = set()
    span = None
    if isinstance(held, torch.Tensor):
        storage = held.untyped_storage()
        span = (storage.data_ptr(), storage.data_ptr() + max(storage.nbytes(), 1))
    for launch in launches:
        if not same_file(launch.get("file"), learner_file):
            continue
        if span is None or any(span[0] <= p < span[1] for p in launch.get("ptrs") or []):
            found.add(launch.get("kernel"))
    return found


def _not_the_same_work(first: list, second: list, got: list, again: list, learner_file: str) -> bool:
    """A second run whose unchanged output is no evidence for an excuse (probe round 14: a wrapper memoised
    with functools.lru_cache on its inputs' bytes handed back its first answer and launched nothing): the
    first run launched learner kernels and the second did not launch all of them, or an output the first run
    handed to learner kernels was not handed, in the second, to each of those. Both backends: the launch
    records (kernel, pointers) are memcheck's."""
    kernels = _learner_kernels(first, learner_file)
    if not kernels:
        return False  # no kernel of theirs ran the first time: nothing to miss
    if not kernels <= _learner_kernels(second, learner_file):
        return True
    for was, now in zip(got, again, strict=False):
        if type(was) is not torch.Tensor:
            continue
        writers = _learner_kernels(first, learner_file, was)
        if writers and not writers <= _learner_kernels(second, learner_file, now):
            return True
    return False


def _plan_excused_reached(
    loaded, plan_loaded, case: dict, backend: str, values: dict, got, kwargs: dict, first: list
) -> bool:
    """_excused_reached for a plan case (outputs and gradients): True when any returned tensor changed in a
    second run with torch's computed values shifted by 1, or when that run did not launch what the first
    (`first`) did."""
    exercise = loaded.exercise
    allocator = memcheck.GuardedAllocator(loaded.device)
    inputs = place_inputs(exercise, case["params"], case["dtype"], values, allocator)
    call = exercise_env.LearnerCall(plan_loaded, backend, allocator)
    call.watchers.append(torch_work.TorchWork(loaded.file, inputs, lambda: call.launches, perturb=True))
    try:
        with _second_run_warnings(loaded.file):
            again = call(*inputs.values(), **kwargs)
    except Exception:  # noqa: BLE001 - no evidence either way
        return False
    first_out = list(got) if isinstance(got, (tuple, list)) else [got]
    second = list(again) if isinstance(again, (tuple, list)) else [again]
    if _not_the_same_work(first, call.launches, first_out, second, loaded.file):
        return True
    return any(
        type(a) is torch.Tensor
        and type(b) is torch.Tensor
        and a.shape == b.shape
        and a.dtype == b.dtype
        and not _same(b.detach().to(a.device), a.detach())
        for a, b in zip(first_out, second, strict=False)
    )


def _padding_made_nonfinite(loaded, case: dict, backend: str, values: dict, got, lab: dict, kwargs: dict):
    """inf/NaN in the output of a run whose loads without other= had lanes masked off (the lab fills those
    with NaN): run the case once more with that padding left 0. True: some of the inf/NaN went away, so the
    padding reached the result; False: all stayed, the arithmetic makes them (an exp that overflows). None:
    nothing to tell (no inf/NaN, or the second run could not be compared)."""
    if not got.is_floating_point():
        return None
    bad = ~torch.isfinite(got.detach())
    if not bool(bad.any()):
        return None
    exercise = loaded.exercise
    allocator = memcheck.GuardedAllocator(loaded.device)
    inputs = place_inputs(exercise, case["params"], case["dtype"], values, allocator, case.get("kwargs"))
    positional, optional = call_args(exercise, inputs)
    try:
        with (
            memcheck.padding_left_zero(),
            _pinned(exercise, loaded, case, lab),
            _second_run_warnings(loaded.file),
        ):
            again = exercise_env.LearnerCall(loaded, backend, allocator)(*positional, **optional, **kwargs)
    except Exception:  # noqa: BLE001 - the first run's facts stand; this one only refines a cause
        return None
    output_spec = exercise.verify.output
    if output_spec.startswith("inplace:"):
        again = inputs[output_spec.split(":", 1)[1]]
    if type(again) is not torch.Tensor or again.shape != got.shape or not again.is_floating_point():
        return None
    return not bool((~torch.isfinite(again.detach()))[bad].all())


def _compact(t: torch.Tensor) -> torch.Tensor:
    """A changed input as the judge needs it (its shape and values): a view whose storage is larger than its
    elements (the far-rows layout spreads rows 2**30 elements apart) is copied first, since torch.save writes
    a view's whole storage — gigabytes, past the runner's file-size limit. Taken with no mode on."""
    with _without_modes():
        t = t.detach()
        if t.untyped_storage().nbytes() > 2 * t.numel() * t.element_size() + 4096:
            return t.clone()
        return t


def _same(now: torch.Tensor, sent) -> bool:
    if not isinstance(sent, torch.Tensor) or now.shape != sent.shape or now.dtype != sent.dtype:
        return False
    with _without_modes():
        a, b = now.detach().to(sent.device), sent
        if a.is_floating_point():
            return bool(
                torch.equal(torch.isnan(a), torch.isnan(b))
                and torch.equal(torch.nan_to_num(a), torch.nan_to_num(b))
            )
        return bool(torch.equal(a, b))


def _cast_same(value, got) -> bool:
    """`value` in `got`'s dtype and shape holds `got`'s values exactly (a copy that casts or flattens)."""
    if value.is_complex() and not got.is_complex():
        return False
    try:
        return _same(value.reshape(got.shape).to(got.dtype), got)
    except (RuntimeError, TypeError):
        return False


def run_plan_case(loaded, case: dict, backend: str, values: dict) -> dict:
    """A case with a verify plan (several outputs, gradients, operators, torch.compile: engine/outputs.py):
    call
    the wrapper through the plan (forward, and in grad mode backward(dy)) and send back only tensors and
    facts.
    Tensors: each output and each input's .grad (payload "outputs"), on a GPU with `deterministic` a second
    run's ("again"), with `compile` torch.compile's ("compiled"). Facts: launches, guards, which of the
    lesson's
    operators were dispatched and which file registered them, whether compiling raised. The judge compares."""
    from tritonlab.engine import outputs

    exercise = loaded.exercise
    facts: dict[str, Any] = {"diagnoses": []}
    plan = outputs.Plan.for_exercise(exercise, case.get("seed") or 0)
    allocator = memcheck.GuardedAllocator(loaded.device)
    inputs = place_inputs(exercise, case["params"], case["dtype"], values, allocator)
    plan_loaded = outputs.wrapped(loaded, plan)
    call = exercise_env.LearnerCall(plan_loaded, backend, allocator)
    work = torch_work.TorchWork(loaded.file, inputs, lambda: call.launches)
    call.watchers.append(work)
    kwargs = case.get("kwargs") or {}
    wanted = list(exercise.verify.ops or [])
    began = time.perf_counter()
    try:
        with outputs.OpRecorder(wanted) as recorder, memcheck.hold_forward_tensors() as held:
            got = call(*inputs.values(), **kwargs)
    except BaseException as exc:  # even BaseException or sys.exit: the learner's line, not a dead runner
        if contracts.is_real_interrupt(exc):
            raise
        facts["error"] = classify(exc, loaded.file)
        facts["launches"] = [_launch(launch) for launch in call.launches]
        return facts
    facts["ms_wall"] = round((time.perf_counter() - began) * 1e3, 3)
    checking = time.perf_counter()
    _call_facts(facts, call, allocator)
    facts["unwrapped"] = _unwrapped(call.launches, loaded.file)
    if plan is not None and plan.upstream_changed:  # the backward wrote into dy
        facts["upstream_changed"] = plan.upstream_changed
    unread = _forward_unread(inputs, got, call.launches, loaded.file)
    if unread:  # the forward's own buffers (a saved rstd) never reached a backward kernel of the learner's
        facts["forward_unread"] = unread
    del held
    grads_from_torch = _grads_from_torch(exercise, plan, call.launches, loaded.file, work)
    if grads_from_torch:  # the lesson's kernel gradients that no learner kernel was handed
        facts["grads_from_torch"] = grads_from_torch
    if work.found:  # torch computed on the inputs what the exercise asks a kernel to compute
        facts["torch_work"] = work.found
    elif work.excused and _plan_excused_reached(
        loaded, plan_loaded, case, backend, values, got, kwargs, call.launches
    ):
        facts["torch_work"] = work.excused  # the outputs moved with the values torch computed
    facts["ops_seen"] = [name for name in wanted if name in recorder.seen]
    facts["ops_mutated"] = recorder.mutated[:8]
    facts["ops_origin"] = {name: outputs.op_origin(name) for name in wanted}
    facts["ops_registered"] = {name: outputs.op_registration(name) for name in wanted}
    got = tuple(got) if isinstance(got, (tuple, list)) else (got,)
    facts["returned"] = [
        None
        if value is None
        else "Tensor"
        if type(value) is torch.Tensor
        else f"subclass:{type(value).__name__}"
        if isinstance(value, torch.Tensor)
        else type(value).__name__
        for value in got
    ][:64]
    payload: dict = {"outputs": _plain_tensors(got)}
    spec = exercise.verify
    # The judge compares the two runs' bits. On a GPU every case runs twice; on the interpreter, whose order
    # never changes, one case (the judge's "reorder") runs again with its programs in reverse order.
    if spec.deterministic and (backend == "gpu" or case.get("reorder")):
        from tritonlab.engine.interpreter_support import programs_in_reverse

        with programs_in_reverse() if backend != "gpu" else contextlib.nullcontext(False) as reversed_:
            try:
                payload["again"] = _plain_tensors(
                    exercise_env.LearnerCall(plan_loaded, backend)(*inputs.values(), **kwargs)
                )
            except Exception as exc:  # noqa: BLE001 - the second run failing is the learner's, say so
                facts["again_error"] = classify(exc, loaded.file)
        facts["again_order"] = "reversed" if reversed_ else "same"
        if backend != "gpu" and not reversed_:
            payload.pop("again", None)  # an interpreter this cannot reorder: nothing was checked
    if case.get("compile"):
        facts["compile"] = _compile(plan, loaded.wrapper, list(inputs.values()), kwargs, payload)
    payload["inputs"] = {
        k: _compact(v) for k, v in inputs.items() if type(v) is torch.Tensor and not _same(v, values[k])
    }
    facts["inputs_returned"] = sorted(payload["inputs"])
    if call.checker is not None and facts["stats"].get("padded"):
        padding = _plan_padding(loaded, plan, case, backend, values, got, kwargs, facts["stats"]["padded"])
        if padding:  # the judge names a load without other= only for an output whose inf/NaN it made
            facts["padding_nonfinite"] = padding
    facts["check_ms"] = round((time.perf_counter() - checking) * 1e3, 3)  # with a second run, torch.compile
    _save(payload, case["output"], facts)
    return facts


def _forward_unread(inputs: dict, got, launches: list, learner_file: str) -> int:
    """Gradient mode: how many tensors the learner's forward kernels were handed that are neither an input nor
    a returned output (what the forward stores for the backward: rstd) when no learner backward kernel was
    handed any of them — the backward recomputes what the forward saved. 0 otherwise (no backward launch, or
    one reads them). Exact by pointer: the runner holds the forward's tensors alive through the backward
    (`memcheck.hold_forward_tensors`)."""
    mine = [launch for launch in launches if same_file(launch.get("file"), learner_file)]
    forward = {p for launch in mine if launch.get("phase") == "forward" for p in launch.get("ptrs") or []}
    backward = {p for launch in mine if launch.get("phase") == "backward" for p in launch.get("ptrs") or []}
    if not forward or not backward:
        return 0
    known = {v.data_ptr() for v in inputs.values() if isinstance(v, torch.Tensor)}
    for value in got if isinstance(got, (tuple, list)) else (got,):
        if isinstance(value, torch.Tensor):
            known.add(value.data_ptr())
    saved = forward - known
    return len(saved) if saved and not saved & backward else 0


def _grads_from_torch(exercise, plan, launches: list, learner_file: str, work) -> list[str]:
    """Contract `kernel_grads`: the inputs whose gradient the lesson's kernels compute (rms norm's dx; its dW
    torch may finish from partial rows). Those whose gradient, as the learner's backward returned it (or the
    tensor it is a dtype cast or a clone of), is memory no learner launch was handed: torch computed it (probe
    round 12: `dx = (r * (g - ...)).to(x.dtype)` returned beside a kernel that made only part of dW)."""
    names = (exercise.verify.contracts or {}).get("kernel_grads") or []
    if not names or plan is None:
        return []
    ptrs = [
        p
        for launch in launches
        if same_file(launch.get("file"), learner_file)
        for p in launch.get("ptrs") or []
    ]

    def handed(t) -> bool:
        storage = t.untyped_storage()
        start = storage.data_ptr()
        return any(start <= p < start + max(storage.nbytes(), 1) for p in ptrs)

    found = []
    for name in names:
        grad = plan.received.get(str(name))
        chain: list = []
        while type(grad) is torch.Tensor and len(chain) < 5:
            chain.append(grad)  # back through dtype casts and clones to memory a kernel may have written
            cast = work.cast_source(grad)
            grad = cast if cast is not None else work.clones.get(grad.untyped_storage().data_ptr())
        if chain and chain[0].numel() and not any(handed(t) for t in chain):
            found.append(str(name))
    return found


def _plan_padding(
    loaded, plan, case: dict, backend: str, values: dict, got: tuple, kwargs: dict, padded
) -> dict:
    """run_case's `_padding_made_nonfinite` for a plan case, per output: a float output with inf/NaN after a
    run whose loads without other= had lanes masked off (filled with NaN) -> {"cleared": whether some of
    them went away in a second run with that padding left 0, "rows_left": the rows (axis 0) of a 2-D or
    larger output still inf/NaN there, "lines": the padded loads' lines}. With a backward and loads padded in
    several lines, a third run leaves only the forward's padding 0: the loads still padded there are the
    backward's; an output whose cleared inf/NaN that run keeps got them from the backward's loads, one whose
    cleared inf/NaN it loses from the forward's, and "lines" holds that phase's (the backward's first when
    both). The tutorial's weight load without other= is harmless in the forward, which stores under the same
    mask, and poisons the backward's row sum."""
    bad: dict[str, tuple[int, torch.Tensor]] = {}
    for index, value in enumerate(got[: len(plan.names)]):
        if type(value) is torch.Tensor and value.is_floating_point():
            mask = ~torch.isfinite(value.detach())
            if bool(mask.any()):
                bad[plan.names[index]] = (index, mask)
    lines = [
        p["line"]
        for p in padded
        if isinstance(p, dict) and isinstance(p.get("line"), int) and not isinstance(p.get("line"), bool)
    ]
    if not bad or not lines:
        return {}
    zero = _plan_again(loaded, plan, case, backend, values, kwargs, forward_only=False)
    if zero is None:
        return {}
    backward = None
    if plan.grad_inputs and len(lines) > 1:
        backward = _plan_again(loaded, plan, case, backend, values, kwargs, forward_only=True)
    found: dict[str, dict] = {}
    for name, (index, mask) in bad.items():
        still = _still_nonfinite(zero[1], index, mask)
        if still is None:
            continue
        gone = mask & ~still
        entry: dict[str, Any] = {"cleared": bool(gone.any()), "lines": lines[:8]}
        if still.dim() >= 2:
            rows = still.reshape(still.shape[0], -1).any(dim=1).nonzero().reshape(-1)
            entry["rows_left"] = rows[:64].tolist()
        if entry["cleared"] and backward is not None:
            after = [line for line in lines if line in backward[0]]  # padded in the backward
            kept = _still_nonfinite(backward[1], index, gone)
            if after and kept is not None:  # each phase's loads when its padding reached this output
                before = [line for line in lines if line not in after]
                chosen = (after if bool(kept.any()) else []) + (before if bool((gone & ~kept).any()) else [])
                entry["lines"] = (chosen or lines)[:8]
        found[name] = entry
    return found


def _plan_again(loaded, plan, case: dict, backend: str, values: dict, kwargs: dict, forward_only: bool):
    """The plan case run once more with the padding of loads without other= left 0 (everywhere, or with
    `forward_only` in the wrapper's call only: the backward, run after it, keeps the lab's NaN): (the lines
    of the loads still padded with NaN, the outputs), or None when that run raised."""
    from tritonlab.engine import outputs

    wrapper = loaded.wrapper

    def forward_zero(*args, **kw):
        with memcheck.padding_left_zero():
            return wrapper(*args, **kw)

    exercise = loaded.exercise
    allocator = memcheck.GuardedAllocator(loaded.device)
    inputs = place_inputs(exercise, case["params"], case["dtype"], values, allocator)
    again = outputs.wrapped(
        dataclasses.replace(loaded, wrapper=forward_zero) if forward_only else loaded, plan
    )
    call = exercise_env.LearnerCall(again, backend, allocator)
    try:
        with (
            contextlib.nullcontext() if forward_only else memcheck.padding_left_zero(),
            _second_run_warnings(loaded.file),
        ):
            result = call(*inputs.values(), **kwargs)
    except Exception:  # noqa: BLE001 - the first run's facts stand; this one only refines a cause
        return None
    stats = call.checker.stats.to_dict() if call.checker is not None else {}
    lines = {p.get("line") for p in stats.get("padded") or [] if isinstance(p, dict)}
    return lines, tuple(result) if isinstance(result, (tuple, list)) else (result,)


def _still_nonfinite(values: tuple, index: int, where: torch.Tensor) -> torch.Tensor | None:
    """The elements of `where` that output `index` of a second run still holds as inf/NaN, or None when that
    output is not a float tensor of the same shape."""
    value = values[index] if index < len(values) else None
    if type(value) is not torch.Tensor or value.shape != where.shape or not value.is_floating_point():
        return None
    return where & ~torch.isfinite(value.detach()).to(where.device)


def _plain_tensors(values) -> dict:
    """index (as text) -> detached plain tensor; anything else (None, a subclass) stays out: the judge names
    it."""
    values = tuple(values) if isinstance(values, (tuple, list)) else (values,)
    with _without_modes():
        return {str(i): v.detach() for i, v in enumerate(values) if type(v) is torch.Tensor}


def _compile(plan, wrapper, args: list, kwargs: dict, payload: dict) -> dict:
    """torch.compile(fullgraph=True) of the wrapper, forward (+ backward) on copies: its tensors go to the
    judge
    (payload "compiled"); a graph break raises under fullgraph=True and is a fact here."""
    import torch._dynamo

    torch._dynamo.reset()
    copies = [a.detach().clone() if isinstance(a, torch.Tensor) else a for a in args]
    try:
        got = plan.wrap(torch.compile(wrapper, fullgraph=True))(*copies, **kwargs)
        torch.cuda.synchronize()
    # graph breaks raise under fullgraph=True; so does an untraceable op
    except Exception as exc:  # noqa: BLE001
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return {"checked": True, "graph_breaks": 1, "error": type(exc).__name__, "message": first[:300]}
    payload["compiled"] = _plain_tensors(got)
    return {"checked": True, "graph_breaks": 0}


def run_reject(loaded, reject: dict, backend: str) -> dict:
    exercise = loaded.exercise
    spec = next(r for r in exercise.rejects if r.name == reject["name"])
    facts: dict = {"name": spec.name}
    try:  # an optional input the override changes is passed (a bias of the wrong length)
        inputs = make_inputs(
            exercise, spec.params, spec.dtype, 0, loaded.device, override=spec.override, passing=spec.override
        )
    except Exception as exc:  # noqa: BLE001 - a bad override in the lesson, not the learner's fault
        facts["lesson_error"] = repr(exc)
        return facts
    facts["inputs"] = {k: describe(v) for k, v in inputs.items()}
    facts["input_facts"] = {k: input_facts(v) for k, v in inputs.items()}
    call = exercise_env.LearnerCall(loaded, backend)
    positional, optional = call_args(exercise, inputs)
    try:
        call(*positional, **optional)
    except BaseException as exc:
        if contracts.is_real_interrupt(exc):
            raise
        facts["raised"] = f"{type(exc).__name__}: {exc}"[:500]
        facts["raised_types"] = [c.__name__ for c in type(exc).__mro__][
            :12
        ]  # a refusal or a bug in the check
        facts["launched"] = bool(call.launches)
        if call.launches:
            facts["error"] = classify(exc, loaded.file)
        else:
            facts["raised_line"] = classify(exc, loaded.file).get("line")
        return facts
    facts["launched"] = bool(call.launches)
    return facts


def _unwrapped(launches: list, learner_file: str) -> list[dict]:
    """Launches made inside an operator's body without wrap_triton (memcheck records `op`, `wrapped` and the
    frames out to the body): the kernel, the operator and the learner's line of the launch (its innermost
    frame in the learner's file). One per kernel and line, at most eight."""
    found: list[dict] = []
    for launch in launches:
        if "wrapped" not in launch or launch["wrapped"]:
            continue
        line = next(
            (int(at) for file, at in launch.get("frames") or [] if same_file(file, learner_file)), None
        )
        item = {"kernel": launch.get("kernel"), "op": launch.get("op"), "line": line}
        if item not in found:
            found.append(item)
    return found[:8]


def _launch(launch: dict) -> dict:
    keys = ("kernel", "file", "grid", "meta", "knobs", "grid_fn", "pid_axes", "phase")
    return {k: launch.get(k) for k in keys}


def _block_size_guess(loaded):
    for name in ("BLOCK_SIZE", "BLOCK"):
        value = getattr(loaded.module, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None
