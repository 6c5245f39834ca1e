"""What every task needs in the worker: the exercise, the learner's module and wrapper, the device."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from tritonlab.content.loader import load_catalog
from tritonlab.content.model import Exercise
from tritonlab.engine.learner import LearnerError, load_module, static_range_misuse
from tritonlab.engine.protocol import error

_CATALOGS: dict = {}


def catalog(lessons_dir: str | None = None, kernels_dir: str | None = None):
    key = (lessons_dir, kernels_dir)
    if key not in _CATALOGS:
        _CATALOGS[key] = load_catalog(
            Path(lessons_dir) if lessons_dir else None, Path(kernels_dir) if kernels_dir else None
        )
    return _CATALOGS[key]


def unknown_ref_facts(exc: KeyError) -> dict:
    """The facts of the catalog's refusal of a lesson or exercise (`content.loader.UnknownRef`), for an
    error's `code`/values: the UI words them in the learner's language, not the KeyError's English."""
    facts = getattr(exc, "facts", None)
    return {"code": "unknown-ref", **facts} if isinstance(facts, dict) else {}


def no_bench(exercise_key: str, op: str) -> dict:
    """The refusal of `bench` or `profile` (`op`) of an exercise whose lesson declares no [exercise.bench]."""
    what = "no data to profile on" if op == "profile" else "nothing to time"
    return error(
        "usage",
        f"{exercise_key} declares no [exercise.bench]: {what}",
        code="no-bench",
        exercise=exercise_key,
        op=op,
    )


@dataclass
class Loaded:
    exercise: Exercise
    file: str
    module: ModuleType
    wrapper: Callable[..., Any]
    device: Any  # a torch.device (torch is imported only inside the worker)


def load(args: dict, backend: str) -> Loaded:
    """Resolve args {exercise, file?, solution?} to a loaded learner module. Raises LearnerError."""
    import torch

    cat = catalog(args.get("lessons_dir"), args.get("kernels_dir"))
    try:
        exercise = cat.exercise(args["exercise"])
    except KeyError as exc:
        raise LearnerError(error("usage", str(exc).strip("'\""), **unknown_ref_facts(exc))) from None
    if args.get("solution"):
        path = exercise.solution
    elif args.get("file"):
        path = Path(args["file"])
    else:
        path = exercise.starter
    module = load_module(path)
    wrapper = getattr(module, exercise.entry, None)
    if not callable(wrapper):
        raise LearnerError(
            error(
                "runtime",
                f"your file defines no function {exercise.entry}(): the lab calls "
                f"{exercise.entry}(...) with torch tensors and compares what it returns",
                None,
                cause="no-entry",
                entry=exercise.entry,
            )
        )
    if backend == "interpreter":  # a GPU's compiler says this itself
        misuse = static_range_misuse(path)
        if misuse is not None:
            raise LearnerError(misuse)
    device = torch.device("cuda") if backend == "gpu" else torch.device("cpu")
    return Loaded(exercise, str(Path(path).resolve()), module, wrapper, device)


# torch.testing's defaults per dtype (rtol, atol)
DEFAULT_TOLERANCE = {
    "float16": (1e-3, 1e-5),
    "bfloat16": (1.6e-2, 1e-5),
    "float32": (1.3e-6, 1e-5),
    "float64": (1e-7, 1e-7),
}


def tolerance(exercise, dtype_name: str) -> tuple[float, float]:
    """(atol, rtol) for a case: the exercise's override, else torch.testing's default for the dtype."""
    rtol, atol = DEFAULT_TOLERANCE.get(dtype_name, (0.0, 0.0))
    custom = exercise.verify.tolerance.get(dtype_name, {})
    return float(custom.get("atol", atol)), float(custom.get("rtol", rtol))


def magnitude_reference(exercise, inputs: dict, params: dict, kwargs: dict):
    """The reference evaluated on the inputs' magnitudes in float64 (|x| for every floating input): for a sum
    Σ|x|, for a product of matrices |A|·|B| — the scale of a reduction's rounding error in any order. None
    when the reference cannot run on float64 magnitudes or gives no tensor."""
    import torch

    magnitudes = {
        name: value.detach().abs().double()
        if isinstance(value, torch.Tensor) and (value.is_floating_point() or value.is_complex())
        else value
        for name, value in inputs.items()
    }
    try:
        bound = reference(exercise, magnitudes, params, kwargs)
    except Exception:  # noqa: BLE001 - a reference that cannot take float64 keeps the declared tolerance
        return None
    return bound.detach().double() if isinstance(bound, torch.Tensor) else None


def rounding_atol(exercise, inputs: dict, params: dict, kwargs: dict, atol: float) -> float:
    """A case's atol, raised to the rounding of a float32 sum when the exercise declares `sum_rounding` (k):
    at least k · eps(float32) · max |reference(|inputs|)|, the reference evaluated on the inputs' magnitudes
    in float64 — for a row sum that is k · eps · Σ|x| of the largest row. Any summation order (serial,
    lanes, a tree, a dot with a column of ones) is inside it; a missing or extra term is far outside it.
    Unchanged when the exercise declares none or the reference cannot run on float64 magnitudes."""
    import torch

    factor = exercise.verify.sum_rounding
    if not factor:
        return atol
    bound = magnitude_reference(exercise, inputs, params, kwargs)
    if bound is None or bound.numel() == 0:
        return atol
    largest = float(bound.abs().max())
    if not math.isfinite(largest):
        return atol
    return max(atol, factor * float(torch.finfo(torch.float32).eps) * largest)


def element_size(dtype_name: str) -> int:
    import torch

    from tritonlab.engine.inputs import DTYPES

    return torch.empty((), dtype=DTYPES[dtype_name]).element_size()


def reference(
    exercise,
    inputs: dict,
    params: dict,
    kwargs: dict,
    expression: str | None = None,
    modules: dict | None = None,
):
    """The exercise's reference expression evaluated on the inputs; `modules` replaces `torch` / `F` in its
    namespace (value_slips: the reference with every sigmoid flipped)."""
    import torch
    import torch.nn.functional as F

    names = {"torch": torch, "F": F, "math": math, "kw": kwargs, **(modules or {})}
    names.update(params)
    # an optional input this case does not pass is None
    names.update({spec.name: None for spec in exercise.inputs if getattr(spec, "optional", False)})
    names.update(inputs)
    return eval(expression or exercise.reference, names)  # noqa: S307 - shipped lesson content


def case_name(params: dict, dtype: str, seed: int | None = None, kwargs: dict | None = None) -> str:
    parts = [", ".join(f"{k}={v}" for k, v in params.items()), dtype]
    if seed:
        parts.append(f"seed {seed}")
    if kwargs:  # the far_rows case's input is shown by its row stride (language-neutral, as code)
        parts.append(
            ", ".join(
                f"{v}.stride(0)=2**30" if k == "@far_rows" else f"{k}={_shown(v)}" for k, v in kwargs.items()
            )
        )
    return " · ".join(p for p in parts if p)


def _shown(value) -> str:
    """A variant's value in a case name: a config table as (BLOCK_M=32, BLOCK_K=64, ...)."""
    if isinstance(value, dict):
        return "(" + ", ".join(f"{k}={v}" for k, v in value.items()) + ")"
    if isinstance(value, list):  # "@with" = ["bias"]: @with=bias
        return "+".join(str(v) for v in value)
    return str(value)


def evaluate_bytes(expression: str, params: dict, size: int) -> float:
    from tritonlab.engine.inputs import evaluate

    return float(evaluate(expression, dict(params, element_size=size)))


HOOKS_LEFT: list[str] = []  # hooks and torch modes a learner call left installed (removed)


def _remove_hooks(before: tuple) -> list[str]:
    """Put back the trace and profile hooks (sys's, and threading's for new threads) that were installed
    before the learner's code ran (`integrity.hooks_now()`); the names of those it left changed (the runner
    reports them as tampering: integrity.py)."""
    from tritonlab.engine import integrity

    return integrity.restore_hooks(before)


#: torch's mode-stack functions, bound on first use (in a verify, before the learner's file loads): a file
#: that replaces `torch._C._len_torch_function_stack` does not change what the lab reads
_MODE_API: dict[str, Any] = {}


def _modes() -> dict[str, Any]:
    if not _MODE_API:
        import functools

        import torch
        from torch.utils._device import DeviceContext

        c = torch._C
        _MODE_API.update(
            function=(c._len_torch_function_stack, c._get_function_stack_at, c._pop_torch_function_stack),
            dispatch=(
                c._len_torch_dispatch_stack,
                c._get_dispatch_stack_at,
                functools.partial(c._pop_torch_dispatch_stack, None),  # None: the user modes' stack
            ),
            device=DeviceContext,
        )
    return _MODE_API


def mode_depths() -> tuple[int, int]:
    """How many modes torch's function-mode and dispatch-mode stacks hold now."""
    api = _modes()
    return api["function"][0](), api["dispatch"][0]()


def _remove_modes(before: tuple[int, int]) -> list[str]:
    """Pop the torch modes pushed since `before` (`mode_depths()`) and never left: a TorchFunctionMode or
    TorchDispatchMode still on the stack runs inside the lab's own checks (probe round 14: a mode entered at
    import returned torch's row sums for the lab's `detach()` of the output). Their names ("TorchFunctionMode
    _Finish"). `torch.set_default_device`'s DeviceContext is no hook: it stays, unnamed."""
    api = _modes()
    names: list[str] = []
    for (length, at, pop), was, label in zip(
        (api["function"], api["dispatch"]), before, ("TorchFunctionMode", "TorchDispatchMode"), strict=True
    ):
        left = [at(index) for index in range(was, length())]
        hooks = [mode for mode in left if type(mode) is not api["device"]]
        if not hooks:
            continue
        names.extend(f"{label} {type(mode).__name__}" for mode in hooks)
        while length() > was:
            pop()
    return names


def environment() -> tuple:
    """What a learner's code could leave behind, as it is now: the hooks and torch's mode-stack depths."""
    from tritonlab.engine import integrity

    return integrity.hooks_now(), mode_depths()


def restore_environment(before: tuple) -> list[str]:
    """Put back the hooks and the mode stacks of `before` (`environment()`); the names of what was left."""
    hooks, depths = before
    return _remove_hooks(hooks) + _remove_modes(depths)


def take_hooks_left() -> list[str]:
    """The hooks learner calls left installed since the last call of this (each name once)."""
    found = sorted(set(HOOKS_LEFT))
    HOOKS_LEFT.clear()
    return found


class LearnerCall:
    """Calls the learner's wrapper under the lab's watch: launches recorded, the learner's own allocations
    poisoned (and guarded), every load/store bounds-checked on the interpreter, the GPU synchronised.
    `launches` and `checker` stay readable after the call, also when it raised."""

    def __init__(self, loaded: Loaded, backend: str, allocator=None, checker=None, watchers=(), target=None):
        from tritonlab.engine import memcheck

        self.loaded = loaded
        self.target = target  # what to call instead of the wrapper (bench: one backward pass of its graph)
        self.allocator = allocator
        if checker is None and backend == "interpreter":
            checker = memcheck.InterpreterMemcheck(loaded.file)
        self.checker = checker
        self.watchers = list(
            watchers
        )  # context managers entered innermost (e.g. the runner's provenance watch)
        self.launches: list = []
        self.checked = False  # whether the bounds checker really watched the call
        self.unchecked_reason: str | None = None

    def __call__(self, *args, **kwargs):
        import contextlib

        import torch

        from tritonlab.engine import integrity, memcheck

        with contextlib.ExitStack() as stack:
            self.launches = stack.enter_context(memcheck.track_launches())
            if self.allocator is not None:
                stack.enter_context(memcheck.poisoned_allocations(self.allocator, self.loaded.file))
            if self.checker is not None:
                stack.enter_context(self.checker)
                self.checked, self.unchecked_reason = self.checker.active, self.checker.reason
            for watcher in self.watchers:
                stack.enter_context(watcher)
            before = environment()
            # every launch: a hook installed since now, or Triton's language changed, is noted (integrity.py)
            stack.enter_context(integrity.launch_watch(before[0]))
            try:
                result = (self.target or self.loaded.wrapper)(*args, **kwargs)
            finally:  # before any of the lab's checks runs: a hook or mode left in place would run in them
                HOOKS_LEFT.extend(restore_environment(before))
            if self.checker is not None:  # the checker can give up mid-way (it says why)
                self.checked, self.unchecked_reason = self.checker.active, self.checker.reason
            if self.loaded.device.type == "cuda":
                torch.cuda.synchronize()
        return result
