"""Work the learner's file hands to PyTorch: the computation the exercise asks a Triton kernel to do, done by
torch on the inputs instead (`torch.logsumexp(logits)` handed to a kernel that only gathers,
`torch.autograd.grad` in a backward whose kernel only copies the gradients). The copied-answer rule
(Provenance.copied) sees only an output that equals a tensor torch made; here torch made part of the answer
and a kernel finished it.

A TorchDispatchMode follows the inputs' values through every aten operator the call dispatches (taint: an
operator's outputs carry its floating-point inputs' names; allocation-like operators, `empty_like` and the
like, carry none; a buffer handed to one of the learner's kernels is the kernel's from then on). An
operator of the kinds below, dispatched from a line of the learner's file on values that came from an input,
is a fact {op, input, line}. Elementwise arithmetic on an input (x + y, addcmul, a ** b) is one too when its
result is handed to one of the learner's kernels (`handed`): torch computed part of what the kernel returns.
Views, casts, copies and pads are not: they hold the input's own values. Inside an operator body dispatched
under another mode (lesson 12's triton_op) this mode does not see the body's operators: those exercises have
their own checks (OpRecorder).

Values can reach a kernel past the operators (probe round 14), and each way is followed: an input's values
taken out of torch (numpy, tolist, item, dlpack, torch.save / pickle) and bytes then appearing in a learner
buffer with no operator writing them (`ctypes.memmove` into `data_ptr()`, a numpy view, `torch.from_file`,
a storage rebuilt by `set_`) are "numpy"'s, and a storage torch.load rebuilt from a computed tensor's saved
bytes is that tensor again; an aten operator whose kernel is a Python function of the learner's
(`Library("aten", "IMPL").impl(...)`) runs that kernel under a fresh mode; torch called while the Python
dispatch key is excluded (no dispatch mode runs then) is followed by name through a TorchFunctionMode."""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sys
from collections.abc import Callable
from typing import Any

from tritonlab.engine.learner import same_file

#: aten operator names (the schema name without "aten::" and the overload) that do an exercise's work
HEAVY = re.compile(
    r"(?:"
    # reductions
    r"sum|nansum|mean|nanmean|prod|amax|amin|max|min|aminmax|logsumexp|_?softmax|_?log_softmax|cumsum|cumprod"
    r"|logcumsumexp|var|std|var_mean|std_mean|norm|linalg_vector_norm|argmax|argmin|topk|median|nanmedian"
    r"|kthvalue|mode"
    # products
    r"|mm|bmm|addmm|addbmm|baddbmm|matmul|mv|addmv|dot|vdot|einsum|linear|tensordot|outer|_scaled_mm"
    r"|scaled_dot_product_attention|_scaled_dot_product_\w+|_flash_attention_\w+|_efficient_attention_\w+"
    r"|convolution|_convolution|conv\w*"
    # normalisations and losses
    r"|native_layer_norm|layer_norm|rms_norm|_fused_rms_norm|group_norm|native_group_norm|batch_norm"
    r"|native_batch_norm|_native_batch_norm_legit\w*|nll_loss\w*|cross_entropy_loss|mse_loss|l1_loss"
    r"|smooth_l1_loss|huber_loss|binary_cross_entropy\w*|kl_div"
    # activations and transcendental functions (what lessons 4-14 teach a kernel to compute)
    r"|gelu|silu|sigmoid|tanh|relu|softplus|elu|selu|celu|mish|hardswish|hardsigmoid|leaky_relu|glu"
    r"|log_sigmoid_forward|erf|exp|exp2|expm1|log|log2|log10|log1p|rsqrt|sqrt"
    # any backward formula (torch.autograd.grad, Tensor.backward inside the learner's own backward)
    r"|\w*_backward\w*"
    r")"
)

#: operators whose outputs hold no input's values (allocation, shapes): they pass on no taint
_FRESH = re.compile(r"(?:empty\w*|zeros\w*|ones\w*|full\w*|new_\w+|rand\w*|arange|linspace|scalar_tensor)")
#: operators whose outputs hold an input's values as they are (views, casts, copies, pads, gathers): what they
#: make is still the input, not torch's computation on it
_COPY = re.compile(
    r"(?:_to_copy|to|clone|copy_?|_copy_from\w*|contiguous|view\w*|_unsafe_view|reshape|_reshape_alias"
    r"|as_strided\w*|expand\w*|permute|transpose\w*|t_?|squeeze\w*|unsqueeze\w*|flatten|unflatten|narrow\w*"
    r"|slice\w*|select\w*|split\w*|chunk|unbind|cat|stack|constant_pad_nd|pad|repeat\w*|index_select|gather"
    r"|take|alias\w*|detach\w*|lift_fresh\w*|unfold|movedim|swapaxes|diagonal|_conj\w*|resolve_\w+"
    r"|pin_memory|_pin_memory|masked_select|lift\w*)"
)

_TORCH_DIR = os.path.dirname(os.path.dirname(os.path.abspath(str(__import__("torch").__file__))))


def _base_name(func: Any) -> str:
    name = str(getattr(getattr(func, "_schema", None), "name", "") or "")
    return name.split("::", 1)[-1]


def _stdlib_dirs() -> tuple[str, ...]:
    import sysconfig

    paths = sysconfig.get_paths()
    return tuple({os.path.abspath(paths[k]) + os.sep for k in ("stdlib", "platstdlib") if paths.get(k)})


_STDLIB = _stdlib_dirs()


def _stdlib(name: str) -> bool:
    """A module of Python's own library (timeit, cProfile, doctest, code, threading), not an installed
    package: torch run through it (`timeit.Timer("x.amax(1)")`) is the learner's line that called it."""
    return name.startswith(_STDLIB) and "-packages" + os.sep not in name


def _valued(t) -> bool:
    """A tensor whose values the taint follows: floating point, or complex (a detour through complex128
    carried no taint: probe round 13's row sums and logsumexp)."""
    try:
        return bool(t.is_floating_point() or t.is_complex())
    except Exception:  # noqa: BLE001 - not a tensor
        return False


@functools.lru_cache(maxsize=1024)
def _absolute(filename: str) -> str:
    return os.path.abspath(filename)


@functools.lru_cache(maxsize=256)
def _from_string(filename: str) -> bool:
    """Code compiled from a string: `<string>`, `<helper>`, or a file name that is on no disk
    (`compile(src, "softmax_helper.py", "exec")`, probe round 11)."""
    return (filename.startswith("<") and filename.endswith(">")) or not os.path.isfile(filename)


def _namespaces(path: str) -> frozenset[str]:
    """The operator namespaces a file names: "ns" of a string "ns::op", and of torch.library.Library("ns",
    ...). Only those operators are run below the Python key (`_below_python`): torch's own namespaces
    (profiler, c10d, inductor, ...) are never touched."""
    import ast

    from tritonlab.engine import contracts

    tree = contracts.file_tree(path)
    if tree is None:
        return frozenset()
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            match = re.match(r"(\w+)::\w", node.value)
            if match:
                found.add(match.group(1))
        if (
            isinstance(node, ast.Call)
            and ast.unparse(node.func).endswith("Library")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.add(node.args[0].value)
    return frozenset(found - {"aten", "prims"})


def _modes_below() -> bool:
    """Another dispatch mode under this one (the lab's OpRecorder in lesson 12): it must see the operator."""
    try:
        from torch.utils._python_dispatch import _get_current_dispatch_mode_stack

        return bool(_get_current_dispatch_mode_stack())
    except Exception:  # noqa: BLE001 - an older torch: assume there are, and call the operator as it is
        return True


def _below_python(func: Any, mode: Callable, args: tuple, kwargs: dict) -> Any:
    """An operator registered with torch.library.define + impl (no custom_op body to swap): its kernels run
    below the Python dispatch key, under a fresh `mode()`, so the aten operators of its Python body are
    watched (probe round 11: swiglu computed in such a body passed)."""
    import torch

    first = next((t for t in _tensors(args, []) + _tensors(kwargs, [])), None)
    key = {"cpu": "CPU", "cuda": "CUDA"}.get(getattr(getattr(first, "device", None), "type", ""))
    if key is None:
        return func(*args, **kwargs)
    try:  # straight to the device's kernel (a "default" impl is registered for every backend)
        keys = torch._C.DispatchKeySet(getattr(torch._C.DispatchKey, key))
        with mode():
            return func.redispatch(keys, *args, **kwargs)
    except (AttributeError, TypeError, NotImplementedError):  # no redispatch here: the operator as it is
        return func(*args, **kwargs)


def _registered(func: Any) -> bool:
    """An operator registered outside aten/prims (torch.library: triton_op, custom_op)."""
    full = str(getattr(getattr(func, "_schema", None), "name", "") or "")
    return "::" in full and full.split("::", 1)[0] not in ("aten", "prims")


def _bound() -> dict[str, Any]:
    """torch's dispatcher functions the watch reads, bound when this module is imported (before any learner
    file loads): a file that replaces `torch._C._dispatch_tls_is_dispatch_key_excluded` does not change what
    the watch reads."""
    import torch

    c = torch._C
    return {
        "excluded": c._dispatch_tls_is_dispatch_key_excluded,
        "python": c.DispatchKey.Python,
        "dump": c._dispatch_dump,
        "impls": getattr(torch.library, "_impls", None),
        "function_stack": (c._len_torch_function_stack, c._get_function_stack_at),
    }


_TORCH_C = _bound()


def _python_key_off() -> bool:
    """Whether the Python dispatch key is excluded on this thread now (`torch._C._DisableTorchDispatch`,
    `torch._C._ExcludeDispatchKeyGuard(DispatchKeySet(DispatchKey.Python))`): no dispatch mode runs for the
    operators dispatched then (probe round 14)."""
    try:
        return bool(_TORCH_C["excluded"](_TORCH_C["python"]))
    except Exception:  # noqa: BLE001 - a torch without it: nothing to say
        return False


#: dispatch keys below the Python key: a kernel there runs inside a dispatch mode's handler, the mode popped
_BELOW_PYTHON_KEYS = frozenset(
    {"CPU", "CUDA", "CompositeExplicitAutograd", "CompositeExplicitAutogradNonFunctional"}
)
_DUMP_LINE = re.compile(r"^(\w+)(?:\[alias\])?( \(inactive\))?: registered at (.*):\d+ :: (.*) \[(.*)\]\s*$")


def _python_kernel_below(qualname: str) -> bool:
    """Whether an aten/prims operator has a kernel written in Python, outside torch, at a key below the Python
    dispatch key: `torch.library.Library("aten", "IMPL").impl("alias_copy", fn, "CPU")` makes a learner
    function the CPU kernel of aten::alias_copy, and a dispatch mode's handler runs it with the mode popped
    (probe round 14: an rms norm computed there passed as a copy). Read from the dispatcher's own table, so a
    registration through `torch._C._dispatch_library` counts as well."""
    try:
        dump = str(_TORCH_C["dump"](qualname))
    except Exception:  # noqa: BLE001 - no such operator, or an older torch
        return False
    for row in dump.splitlines():
        match = _DUMP_LINE.match(row)
        if not match or match.group(2) or match.group(1) not in _BELOW_PYTHON_KEYS:
            continue
        where, signature, flags = match.group(3), match.group(4).strip(), match.group(5)
        if signature != "(none)" or "fallthrough" in flags or "unboxed" in flags:
            continue  # a C++ kernel (typed), or a fallthrough
        if where.endswith((".cpp", ".cc", ".cu", ".h")) or os.path.abspath(where).startswith(
            _TORCH_DIR + os.sep
        ):
            continue  # torch's own
        return True
    return False


#: names of torch functions (as a TorchFunctionMode sees them) -> the aten operator they stand for, where the
#: name differs: the taint rules (HEAVY, _COPY, _FRESH) read aten names
_FUNCTION_NAMES = {
    **dict.fromkeys(
        (
            "float",
            "half",
            "double",
            "bfloat16",
            "int",
            "long",
            "short",
            "char",
            "byte",
            "bool",
            "cpu",
            "cuda",
            "type",
            "type_as",
            "to",
        ),
        "_to_copy",
    ),
    "__get__": "alias",  # a property (x.T, x.mT, x.real): the tensor's own values
    "__getitem__": "slice",
    "__setitem__": "copy_",
    "truediv": "div",
    "floordiv": "floor_divide",
}
_REFLECTED = re.compile(r"__r(add|sub|mul|truediv|floordiv|mod|pow|matmul|and|or|xor|lshift|rshift)__")
_IN_PLACE = re.compile(r"__i(add|sub|mul|truediv|floordiv|mod|pow|matmul|and|or|xor|lshift|rshift)__")


def _function_name(func: Any) -> str:
    """The aten-style name of a torch function a TorchFunctionMode was handed (`Tensor.__rmatmul__` ->
    "matmul", `Tensor.__iadd__` -> "add_", `Tensor.float` -> "_to_copy", `torch.softmax` -> "softmax")."""
    name = str(getattr(func, "__name__", "") or "")
    if name in _FUNCTION_NAMES:
        return _FUNCTION_NAMES[name]
    suffix = ""
    reflected, in_place = _REFLECTED.fullmatch(name), _IN_PLACE.fullmatch(name)
    if reflected or in_place:
        name, suffix = (reflected or in_place).group(1), ("_" if in_place else "")  # type: ignore[union-attr]
    elif name.startswith("__") and name.endswith("__") and len(name) > 4:
        name = name[2:-2]
    return _FUNCTION_NAMES.get(name, name) + suffix


@contextlib.contextmanager
def _watched_body(func: Any, mode: Callable):
    """While a torch.library.custom_op / triton_op runs, its Python body runs under a fresh `mode()`: a
    dispatch mode is off inside its own handler, so what lesson 12's operator body computes with torch (dx,
    the dy * x_hat rows) was unseen (probe round 9). The dispatcher still runs the operator (the lab's
    OpRecorder below sees it); the body is looked up at call time (`_backend_fns`), so it is swapped for the
    call and put back after. Yields whether it swapped one (an operator registered some other way: no)."""
    try:
        from torch._library.custom_ops import OPDEFS

        opdef = OPDEFS.get(str(func._schema.name))
    except Exception:  # noqa: BLE001 - an older torch: the body stays unwatched
        opdef = None
    bodies = getattr(opdef, "_backend_fns", None)
    if not isinstance(bodies, dict) or not bodies:
        yield False
        return
    saved = dict(bodies)

    def watched(body):
        def run(*args, **kwargs):
            with mode():
                return body(*args, **kwargs)

        return run

    for key, body in saved.items():
        bodies[key] = watched(body)
    try:
        yield True
    finally:
        bodies.clear()
        bodies.update(saved)


def _saved_values(value: Any, out: list) -> list:
    """The tensors and storages in what torch.save is given (nested in lists, tuples, dicts)."""
    import torch

    if isinstance(value, (torch.Tensor, torch.UntypedStorage, torch.TypedStorage)):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _saved_values(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _saved_values(item, out)
    return out


def _tensors(value: Any, out: list) -> list:
    import torch

    if isinstance(value, torch.Tensor):
        out.append(value)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _tensors(item, out)
    elif isinstance(value, dict):
        for item in value.values():
            _tensors(item, out)
    return out


def _storage(t: Any) -> tuple[int, int] | None:
    try:
        storage = t.untyped_storage()
        return int(storage.data_ptr()), int(storage.nbytes())
    except Exception:  # noqa: BLE001 - a meta or fake tensor, a sparse one: nothing to follow
        return None


def _snapshot(storage: Any) -> Any:
    """A copy of a storage's bytes (uint8), taken outside the watch's own dispatch mode: the lab's look at a
    buffer is no operator of the learner's."""
    import torch
    from torch.utils._python_dispatch import _disable_current_modes

    with _disable_current_modes():
        return torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage).clone()


def _changed_since(storage: Any, snapshot: Any) -> bool:
    """Whether a storage's bytes differ from a `_snapshot` of them (outside the dispatch mode too)."""
    import torch
    from torch.utils._python_dispatch import _disable_current_modes

    with _disable_current_modes():
        return not torch.equal(
            torch.empty(0, dtype=torch.uint8, device=storage.device).set_(storage), snapshot
        )


def _weak(storage: Any) -> Any:
    """A weak reference to a storage (expired once the storage is freed)."""
    from torch.multiprocessing.reductions import StorageWeakRef

    return StorageWeakRef(storage)


def _revive(ref: Any) -> Any:
    """The storage of a weak reference, or None once it is freed."""
    import torch

    if ref.expired():
        return None
    return torch.UntypedStorage._new_with_weak_ptr(ref.cdata)


def _shift(storage: Any, dtype: Any) -> None:
    """A perturbing second run: every value of a floating-point storage moved by 1, unseen by the watch."""
    import torch
    from torch.utils._python_dispatch import _disable_current_modes

    if not (dtype.is_floating_point or dtype.is_complex):
        return
    with _disable_current_modes(), torch.no_grad():
        torch.empty(0, dtype=dtype, device=storage.device).set_(storage).add_(1.0)


#: at most this many learner buffers tracked per call, and bytes copied to watch them
_TRACKED = 64
_SNAPSHOT_BUDGET = 1 << 30

#: frames between a learner line and the operator it dispatched: this module, and the lab's poisoned
#: allocations (memcheck/guards.py makes the learner's torch.empty come from the guard zones)
_TRANSPARENT = frozenset(
    {
        os.path.abspath(__file__),
        os.path.join(os.path.dirname(os.path.abspath(__file__)), "memcheck", "guards.py"),
    }
)

_ALLOCATORS = {
    "empty",
    "zeros",
    "ones",
    "full",
    "empty_strided",
    "rand",
    "randn",
    "randint",
    "arange",
    "tensor",
}


def _no_device_calls(path: str) -> list[tuple[int, int]]:
    """(first, last) lines of each `torch.empty(...)`-like call in the learner's file with no device= (and no
    **keywords): it allocates on torch's default device, the CPU."""
    from tritonlab.engine.contracts import file_tree

    tree = file_tree(path)
    return [] if tree is None else list(_allocations_without_device(tree))


@functools.lru_cache(maxsize=16)
def _allocations_without_device(tree) -> tuple[tuple[int, int], ...]:
    """Once per parse of a file version (file_tree's cached tree, keyed by identity): asked once per case,
    the walk took ~15 ms a case."""
    import ast

    if any(
        isinstance(n, ast.With) and any("torch.device" in ast.unparse(i.context_expr) for i in n.items)
        for n in ast.walk(tree)
    ):
        return ()  # `with torch.device(x.device):` sets the default device: no call lacks one
    moved = {  # names the file later moves: out = out.to(x.device), out.cuda()
        n.func.value.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr in ("to", "cuda")
        and isinstance(n.func.value, ast.Name)
    }
    chained = {  # torch.empty(...).to(x.device): the call is the receiver of a move
        id(n.func.value)
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in ("to", "cuda")
    }
    targets = {
        id(n.value): {t.id for t in n.targets if isinstance(t, ast.Name)}
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign)
    }
    spans = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = node.func.value
        if not (isinstance(owner, ast.Name) and owner.id == "torch" and node.func.attr in _ALLOCATORS):
            continue
        if any(k.arg in ("device", None) for k in node.keywords):
            continue
        if id(node) in chained or targets.get(id(node), set()) & moved:
            continue
        spans.append((node.lineno, getattr(node, "end_lineno", None) or node.lineno))
    return tuple(spans)


class TorchWork:
    """Context manager around a learner call. `found`: [{op, input, line}] (at most 8, one per op, line)."""

    def __init__(
        self,
        learner_file: str,
        inputs: dict,
        launches: Callable[[], list] | None = None,
        perturb: bool = False,
    ):
        self.learner_file = learner_file
        # a second run's mode: every value torch computes from the inputs on a learner line is shifted by 1
        # (in place) — an output that moves with it was made of torch's values (runner: _excused_reached)
        self.perturb = perturb
        # computed buffers handed beside every input they came from (a self-check reference, t37): said only
        # if a perturbed second run shows the output moving with them
        self.excused: list[dict] = []
        self.launches = launches or (lambda: [])
        self.found: list[dict] = []
        # storage start -> (bytes, input name, the operator that computed it from the input and its line, or
        # None for the input's own values); the inputs' own storages stay tainted for the whole call
        self.taint: dict[int, tuple[int, str, str | None, int | None]] = {}
        self.inputs: set[int] = set()
        # storage start -> the inputs whose values it holds or was computed from; an input's name -> its span
        self.sources: dict[int, frozenset[str]] = {}
        self.input_spans: dict[str, tuple[int, int]] = {}
        for name, value in inputs.items():
            if _valued(value):
                found = _storage(value)
                if found and found[1]:
                    self.taint[found[0]] = (found[1], str(name), None, None)
                    self.inputs.add(found[0])
                    self.sources[found[0]] = frozenset({str(name)})
                    self.input_spans[str(name)] = (found[0], found[0] + found[1])
        self._seen_launches = 0
        self._mode = None
        # every storage an operator made or took during the call (start, end), and the learner lines that
        # took an input's values to numpy (Tensor.numpy on input values): a launch given a buffer no operator
        # ever made after such a line got numpy's result (torch.from_numpy makes no operator call)
        self.numpy_lines: list[tuple[int, str]] = []
        # storage start -> (bytes, the storage, its bytes then) of a learner buffer taken as a numpy view
        # (`lse.numpy()`): after input values went to numpy, a launch given it with other bytes got what numpy
        # wrote there
        self.numpy_views: dict[int, tuple[int, Any, Any]] = {}
        # buffers a learner line allocated with no device= (torch.empty(shape, dtype=...)): on the CPU
        # interpreter that is the inputs' device, on a GPU box it is not, and the launch fails there
        self.no_device_calls = _no_device_calls(learner_file)
        self.default_device: dict[int, tuple[int, int]] = {}  # storage start -> (bytes, line)
        self.device_found: list[dict] = []
        self._numpy: list[tuple[Any, str, Any, Any]] | None = None
        # storage start of a dtype cast's result -> (the tensor it was cast from, the result's storage offset
        # and size) (`out32.to(x.dtype)`, `out16.copy_(out32)`): a wrapper may cast its kernel's output;
        # provenance follows the cast back
        self.casts: dict[int, tuple[Any, int, int]] = {}
        # storage start of a clone's result -> the tensor it cloned (`return dy.clone(), dw` after a kernel
        # stored dx over dy): a copy of a kernel's output is still the kernel's values (runner: kernel_grads)
        self.clones: dict[int, Any] = {}
        # taint start -> a weak reference to the storage it was taken on: an entry whose storage is gone says
        # nothing of a new storage at the same address (torch.load's storage at a freed temporary's address)
        self.owners: dict[int, Any] = {}
        # storage start -> [bytes, weak reference, its bytes when last seen (None until an input's values
        # left torch), dtype] of a buffer a learner line allocated, copied or rebuilt: bytes that change there
        # with no operator writing them (`ctypes.memmove(buf.data_ptr(), ...)`) came from outside torch
        self.tracked: dict[int, list] = {}
        self._snapshot_bytes = 0
        # what torch.save / pickle took out on a learner line: (the storage's bytes, input or None, op, line,
        # sources); a storage rebuilt from the same bytes (torch.load) holds those values again
        self.saved: list[tuple[Any, str | None, str | None, int | None, frozenset[str]]] = []
        self._kernels: dict[str, bool] = {}  # aten/prims operator -> whether a Python kernel replaced it
        self._impls = -1
        self._blind: Any = None  # the TorchFunctionMode that sees torch while the Python key is excluded
        self._runs: Any = None  # the kernel entry points wrapped for the call

    # -- the learner's kernels own what they were given ----------------------------------------------------

    def _launched(self) -> None:
        """The launch records made since last time (`_given`, read after the fact)."""
        launches = self.launches()
        for launch in launches[self._seen_launches :]:
            self._given(launch, running=False)
        self._seen_launches = len(launches)

    def _given(self, launch: dict, running: bool) -> None:
        """A learner launch given a buffer torch computed from an input (x + y, addcmul, a ** b handed to the
        kernel): torch did that part of the work (a fact, with the operator's line). From then on every
        buffer the launch was given is the kernel's (its own output, a scratch it fills). `running`: a kernel
        is about to run with these buffers (`_watch_runs`), all alive now, so an entry whose storage was freed
        is another buffer's stale one; else a launch record read after the kernel ran (a temporary it was
        given may be gone by then)."""
        ptrs = launch.get("ptrs") or []
        self._kernel_given(launch.get("file"), ptrs)
        if not same_file(launch.get("file"), self.learner_file):
            return
        for ptr in ptrs:
            for start, (nbytes, made_at) in self.default_device.items():
                if start <= ptr < start + nbytes and not any(d["line"] == made_at for d in self.device_found):
                    self.device_found.append({"line": made_at})
            for start, (nbytes, storage, then) in list(self.numpy_views.items()):
                if start <= ptr < start + nbytes:
                    del self.numpy_views[start]
                    if self.numpy_lines and _changed_since(storage, then):
                        exported, name = self.numpy_lines[0]
                        self._found("numpy", name, exported, handed=True)
            for start, (nbytes, name, op, line) in list(self.taint.items()):
                if start in self.inputs or not start <= ptr < start + nbytes:
                    continue
                if running and not self._live(start):  # a freed storage's entry: the buffer there is new
                    self._drop(start)
                    continue
                if op is not None and line is not None:
                    if not self._self_check(start, launch):
                        self._found(op, name, line, handed=True)
                    elif len(self.excused) < 8 and not any(e["line"] == line for e in self.excused):
                        self.excused.append({"op": op, "input": name, "line": line, "handed": True})
                self._drop(start)

    def _self_check(self, start: int, launch: dict) -> bool:
        """The launch was also given every input the computed buffer came from (x and y beside torch's x + y):
        a kernel that checks itself against a reference computes its own answer (tamper corpus t37), so a
        buffer handed that way is not counted."""
        names = self.sources.get(start) or frozenset()
        ptrs = launch.get("ptrs") or []
        spans = [self.input_spans.get(n) for n in names]
        return bool(names) and all(span and any(span[0] <= p < span[1] for p in ptrs) for span in spans)

    def _found(self, op: str, name: str, line: int, handed: bool = False) -> None:
        if len(self.found) < 8 and not any(f["op"] == op and f["line"] == line for f in self.found):
            self.found.append({"op": op, "input": name, "line": line, **({"handed": True} if handed else {})})

    def _source(self, tensors: list) -> tuple[str, str | None, int | None] | None:
        """(input name, computing operator, its line) of the first floating-point argument whose values came
        from an input, or None."""
        for t in tensors:
            if not _valued(t):
                continue
            found = _storage(t)
            if found is None:
                continue
            at = self._at(found[0])
            if at is not None:
                return at[1:]
        return None

    def _at(self, ptr: int) -> tuple[int, str, str | None, int | None] | None:
        """(start, input name, computing operator, its line) of the live taint entry holding address ptr."""
        for start, (nbytes, name, op, line) in self.taint.items():
            if start <= ptr < start + nbytes and self._live(start):
                return start, name, op, line
        return None

    def _export(self, value: Any, views: bool = False, saves: bool = False) -> None:
        """A learner line takes values out of torch (Tensor.numpy, tolist, item, __dlpack__; torch.save or
        pickle of a tensor or storage; any dtype: an integer view of x's bits is x's values): an input's
        values leaving (`numpy_lines`, the first opens the byte watch: `_exported`), bytes serialised
        (`saved`: what torch.load rebuilds from them is that tensor again, computed or not), or the learner's
        own buffer as a numpy view (`numpy_views`: numpy may write into it)."""
        import torch

        line = self._learner_line()
        if line is None:
            return
        storage: Any = None
        if isinstance(value, torch.Tensor):
            storage = value.untyped_storage()
        elif isinstance(value, torch.UntypedStorage):
            storage = value
        else:
            storage = getattr(value, "_untyped_storage", None)  # a TypedStorage
        if storage is None or not storage.nbytes():
            return
        at = self._at(int(storage.data_ptr()))
        if saves and len(self.saved) < 16:
            name, op, made_at = at[1:] if at is not None else (None, None, None)
            origin = (self.sources.get(at[0]) or frozenset({at[1]})) if at is not None else frozenset()
            self.saved.append((_snapshot(storage), name, op, made_at, origin))
        if at is None:
            if views and _valued(value) and len(self.numpy_views) < 8:
                # a buffer of the learner's own as a numpy view: numpy may write into it (`lse.numpy()[:] =
                # ...`) with no operator seeing it; its bytes now, to compare
                self.numpy_views[int(storage.data_ptr())] = (
                    int(storage.nbytes()),
                    storage,
                    _snapshot(storage),
                )
            return
        if len(self.numpy_lines) < 4:
            self.numpy_lines.append((line, at[1]))
            if len(self.numpy_lines) == 1:
                self._exported()

    def _learner_line(self) -> int | None:
        """The learner's line that dispatched the operator: the first frame outside torch and this module,
        when it is in the learner's file (the lab's own code and Triton's interpreter are not the learner).
        Code compiled from a string (`exec(compile(src, "<helper>", "exec"))`) is seen through: the learner's
        line that ran it is the one (probe round 10)."""
        frame: Any = sys._getframe(2)
        while frame is not None:
            raw = frame.f_code.co_filename
            # a function of the learner's module, whatever its code object claims (probe round 13 renamed
            # a helper's co_filename to os.__file__)
            if frame.f_globals.get("__file__") == self.learner_file:
                return frame.f_lineno
            # code compiled from a string (exec, eval, FX), or Python's own library running it (timeit,
            # cProfile.runctx, doctest, code.InteractiveInterpreter): the line that ran it decides
            if _from_string(raw):
                frame = frame.f_back
                continue
            name = _absolute(raw)
            if name not in _TRANSPARENT and not name.startswith(_TORCH_DIR + os.sep) and not _stdlib(name):
                return frame.f_lineno if same_file(name, self.learner_file) else None
            frame = frame.f_back
        return None

    def _saw(self, func, args, kwargs, result, own: bool | None = None) -> None:
        self._launched()
        if own if own is not None else (_registered(func) or self._overridden(func)):
            # a registered operator (lesson 12's triton_op): its outputs are its kernels' work; an aten
            # operator whose kernel the learner's file replaced: its body ran under a fresh mode
            return
        self._follow(_base_name(func), args, kwargs, result)

    def _follow(self, name: str, args: tuple, kwargs: dict, result: Any) -> None:
        """What the operator `name` (aten's name) made of its arguments: a copy keeps its source's taint, a
        computation is torch's work on the inputs it came from, an allocation holds nothing of them."""
        if name == "set_":  # a tensor now over another storage: what that storage holds
            if args:
                self._rebuilt(args[0])
            return
        if name == "from_file":  # bytes from a file: what came back from outside torch
            self._brought_in(result)
            return
        if _FRESH.fullmatch(name) or _COPY.fullmatch(name):
            self._made(result)
        if name in ("_to_copy", "copy_"):
            self._cast(name, args, result)
        elif name == "clone" and args and len(self.clones) < 64:
            found = _storage(result)
            if found and found[1]:
                self.clones[found[0]] = args[0]
        if _FRESH.fullmatch(name):  # a new buffer: whatever was known of its memory is gone
            line = self._learner_line() if self.no_device_calls else None
            for out in _tensors(result, []):
                found = _storage(out)
                if found and found[1]:
                    self._claim(*found)
                    self.default_device.pop(found[0], None)
                    if line is not None and any(lo <= line <= hi for lo, hi in self.no_device_calls):
                        self.default_device[found[0]] = (found[1], line)
        tensors = _tensors(args, []) + _tensors(kwargs, [])
        source = self._source(tensors) if tensors else None
        if source is None:
            return
        heavy = HEAVY.fullmatch(name) is not None
        copy = _COPY.fullmatch(name) is not None
        line = self._learner_line() if not copy else None
        if _FRESH.fullmatch(name) or name in ("fill_", "zero_"):
            return
        # a copy keeps what its source was; any other operator computed new values from the input, named by
        # the first reduction/product/activation on the way (torch.logsumexp, not the `- x_t` after it)
        if (
            copy
            or not heavy
            and source[1] is not None
            and (HEAVY.fullmatch(source[1]) or source[1] == "numpy")  # what numpy made stays numpy's
            and source[2] is not None
        ):
            made = (source[0], source[1], source[2])
        else:
            made = (source[0], name, line)
        if self.perturb and not copy and line is not None:  # only operators a learner line dispatched
            import torch

            with torch.no_grad():
                for out in _tensors(result, []):
                    if _valued(out) and out.numel():
                        out.add_(1.0)
        origin = frozenset().union(*(self._origins(t) for t in tensors))
        for out in _tensors(result, []):
            found = _storage(out)
            if found and found[1] and found[0] not in self.inputs and _valued(out):
                if copy and any(_storage(t) == found for t in tensors) and found[0] in self.taint:
                    continue  # a view of its own source (same storage): that source's taint stands
                self._claim(*found)
                self._set_taint(found[0], found[1], *made, out.untyped_storage(), origin)

    # -- taint entries and the storages they were taken on --------------------------------------------------

    def _set_taint(
        self,
        start: int,
        nbytes: int,
        name: str,
        op: str | None,
        line: int | None,
        storage: Any = None,
        origin: frozenset[str] | None = None,
    ) -> None:
        self.taint[start] = (nbytes, name, op, line)
        self.sources[start] = origin if origin is not None else frozenset({name})
        self.owners.pop(start, None)
        if storage is not None:
            with contextlib.suppress(Exception):  # a storage with no weak reference: taken as live
                self.owners[start] = _weak(storage)

    def _drop(self, start: int) -> None:
        self.taint.pop(start, None)
        self.owners.pop(start, None)

    def _live(self, start: int) -> bool:
        """Whether the storage a taint entry was taken on still exists (an entry with no reference: yes)."""
        ref = self.owners.get(start)
        return ref is None or not ref.expired()

    # -- bytes no operator wrote ----------------------------------------------------------------------------

    def _made(self, result: Any) -> None:
        """Buffers an allocation, copy or view made on a learner line: tracked (`tracked`), whatever their
        dtype (bytes memmoved into a uint8 buffer are read as float32 through a view or a kernel's cast)."""
        outs = [t for t in _tensors(result, []) if self._new_storage(t)]
        if outs and self._learner_line() is not None:
            for out in outs:
                self._track(out)

    def _new_storage(self, t: Any) -> bool:
        """A storage neither an input's nor tracked already (a view of one is that one)."""
        start = (_storage(t) or (0, 0))[0]
        return bool(start) and start not in self.inputs and start not in self.tracked

    def _track(self, t: Any) -> None:
        found = _storage(t)
        if not found or not found[1] or not found[0] or found[0] in self.inputs or found[0] in self.tracked:
            return
        if getattr(t.device, "type", "meta") == "meta":
            return
        if len(self.tracked) >= _TRACKED:
            for start, entry in list(self.tracked.items()):
                if entry[1].expired():
                    del self.tracked[start]
            if len(self.tracked) >= _TRACKED:
                return
        storage = t.untyped_storage()
        entry = [found[1], _weak(storage), None, t.dtype]
        self.tracked[found[0]] = entry
        if self.numpy_lines:
            self._snap(found[0], entry, storage)

    def _snap(self, start: int, entry: list, storage: Any) -> None:
        """Take a tracked buffer's bytes now (within a budget of bytes copied per call)."""
        self._snapshot_bytes += entry[0]
        if self._snapshot_bytes > _SNAPSHOT_BUDGET:
            self.tracked.pop(start, None)
            return
        entry[2] = _snapshot(storage)

    def _exported(self) -> None:
        """An input's values left torch (the first export): the bytes of every buffer tracked so far."""
        for start, entry in list(self.tracked.items()):
            storage = _revive(entry[1])
            if storage is None:
                del self.tracked[start]
            elif entry[2] is None:
                self._snap(start, entry, storage)

    def _unwritten(self, start: int, entry: list) -> bool:
        """Whether a tracked buffer's bytes differ from what they were when last seen."""
        storage = _revive(entry[1]) if entry[2] is not None else None
        return storage is not None and _changed_since(storage, entry[2])

    def _watching_bytes(self) -> bool:
        return bool(self.numpy_lines) and any(entry[2] is not None for entry in self.tracked.values())

    def _before(self, args: tuple, kwargs: dict) -> None:
        """Before an operator runs: a tracked buffer it takes whose bytes changed since last seen was written
        by no operator: it holds what came back from outside torch (`_imported`)."""
        if not self._watching_bytes():
            return
        self._launched()
        for t in _tensors(args, []) + _tensors(kwargs, []):
            start = (_storage(t) or (0, 0))[0]
            entry = self.tracked.get(start)
            if entry is not None and self._unwritten(start, entry):
                self._imported(start, entry)

    def _after(self, args: tuple, kwargs: dict) -> None:
        """After an operator ran: a tracked buffer it wrote (in place, out=) is seen anew."""
        if not self._watching_bytes():
            return
        for t in _tensors(args, []) + _tensors(kwargs, []):
            start = (_storage(t) or (0, 0))[0]
            entry = self.tracked.get(start)
            if entry is not None and self._unwritten(start, entry):
                storage = _revive(entry[1])
                if storage is not None:
                    self._snap(start, entry, storage)

    def _kernel_given(self, file: str | None, ptrs: list) -> None:
        """A kernel is about to run with these buffers (or, with no kernel run, a launch record names them):
        for one of the learner's, a tracked buffer whose bytes changed with no operator writing them holds
        what came back from outside torch; any kernel writes what it was given from then on."""
        if not self.tracked:
            return
        mine = same_file(file, self.learner_file)
        for ptr in ptrs:
            for start, entry in list(self.tracked.items()):
                if start <= ptr < start + entry[0]:
                    if mine and self.numpy_lines and self._unwritten(start, entry):
                        self._imported(start, entry)
                    self.tracked.pop(start, None)

    def _imported(self, start: int, entry: list) -> None:
        """A tracked buffer whose bytes no operator wrote, after an input's values left torch: it holds what
        numpy (or Python) computed from them, as torch.from_numpy's result does."""
        self.tracked.pop(start, None)
        storage = _revive(entry[1])
        if storage is None or not self.numpy_lines:
            return
        exported, name = self.numpy_lines[0]
        self._claim(start, entry[0])
        self._set_taint(start, entry[0], name, "numpy", exported, storage)
        if self.perturb:
            _shift(storage, entry[3])

    def _rebuilt(self, t: Any) -> None:
        """`set_`: a tensor now over a storage (torch.load, pickle.loads, copy.copy, UntypedStorage.from_file,
        the interpreter's host copies). Over a storage the watch knows (an input, a live computed tensor, a
        tracked buffer) nothing changed. Over new memory, whatever was known of that address is gone (probe
        round 14: a freed temporary's taint failed a clean loaded buffer); from a learner line, after an
        input's values left torch, the bytes of a computed tensor torch.save took out are that tensor again
        (torch-work names its operator), and any other bytes came from outside torch ("numpy")."""
        found = _storage(t)
        if not found or not found[1] or found[0] in self.inputs:
            return
        start, nbytes = found
        entry = self.tracked.get(start)
        if (start in self.taint and self._live(start)) or (entry is not None and not entry[1].expired()):
            return
        self._claim(start, nbytes)
        self.tracked.pop(start, None)
        if self._learner_line() is None:
            return
        storage = t.untyped_storage()
        saved = self._saved_as(storage)
        if saved is not None:  # the bytes torch.save took out of a tensor: that tensor's values again
            name, op, line, origin = saved
            if name is not None:  # (a tensor that held nothing of an input stays clean)
                self._set_taint(start, nbytes, name, op, line, storage, origin)
        elif self.numpy_lines:
            exported, name = self.numpy_lines[0]
            self._set_taint(start, nbytes, name, "numpy", exported, storage)
            if self.perturb:
                _shift(storage, t.dtype)
        self._track(t)

    def _saved_as(self, storage: Any) -> tuple[str | None, str | None, int | None, frozenset[str]] | None:
        """(input or None, op, line, sources) of what torch.save took out with exactly these bytes, or None
        (the last such save: the same bytes saved twice are the same values)."""
        for snapshot, name, op, line, origin in reversed(self.saved):
            if int(snapshot.numel()) == int(storage.nbytes()) and not _changed_since(storage, snapshot):
                return name, op, line, origin
        return None

    def _brought_in(self, result: Any) -> None:
        """torch.from_file's tensor: bytes from outside torch (a numpy result written to a file)."""
        line = self._learner_line()
        for out in _tensors(result, []):
            found = _storage(out)
            if not found or not found[1]:
                continue
            self._claim(*found)
            if line is None:
                continue
            if self.numpy_lines:  # any dtype: a uint8 file read is float32 through a view
                exported, name = self.numpy_lines[0]
                self._set_taint(found[0], found[1], name, "numpy", exported, out.untyped_storage())
                if self.perturb:
                    _shift(out.untyped_storage(), out.dtype)
            self._track(out)

    # -- aten operators the learner's file gave a Python kernel ---------------------------------------------

    def _overridden(self, func: Any) -> bool:
        """An aten/prims operator whose kernel below the Python key is a Python function from outside torch
        (`_python_kernel_below`): read once per operator and call, again when torch.library registers more."""
        full = str(getattr(getattr(func, "_schema", None), "name", "") or "")
        if full.split("::", 1)[0] not in ("aten", "prims"):
            return False
        impls = _TORCH_C["impls"]
        count = len(impls) if impls is not None else 0
        if count != self._impls:
            self._kernels.clear()
            self._impls = count
        known = self._kernels.get(full)
        if known is None:
            known = self._kernels[full] = _python_kernel_below(full)
        return known

    # -- torch while no dispatch mode runs -------------------------------------------------------------------

    def _hidden(self, func: Any, args: tuple, kwargs: dict, result: Any) -> None:
        """A torch function called while the Python dispatch key was excluded (no dispatch mode saw its
        operators): followed as the dispatch mode follows an operator, under its aten-style name, so what it
        computed from an input is torch-work at the learner's line (probe round 14: a product under
        `_ExcludeDispatchKeyGuard(DispatchKeySet(DispatchKey.Python))` passed)."""
        self._launched()
        name = _function_name(func)
        if not name:
            return
        if name == "copy_" and str(getattr(func, "__name__", "")) == "__setitem__":  # t[i] = value
            if len(args) < 3:
                return
            args, result = (args[0], args[2]), args[0]
        self._follow(name, args, kwargs, result)

    @functools.cached_property
    def namespaces(self) -> frozenset[str]:
        """Operator namespaces the learner's file registers ("p11lib" of torch.library.define("p11lib::f")):
        read the first time a registered operator runs, never for a call that has none."""
        return _namespaces(self.learner_file)

    def _run_operator(self, func, mode: Callable, args: tuple, kwargs: dict) -> Any:
        """A registered operator, with its Python body watched: a custom_op/triton_op body swapped for the
        call (`_watched_body`), else a define + impl operator of the learner's namespace run below the Python
        key (`_below_python`) when no other mode below must see it."""
        if not _registered(func):  # an aten operator whose kernel is the learner's: that kernel, watched
            return _below_python(func, mode, args, kwargs)
        with _watched_body(func, mode) as swapped:
            if swapped or _modes_below() or str(func._schema.name).split("::", 1)[0] not in self.namespaces:
                return func(*args, **kwargs)
            return _below_python(func, mode, args, kwargs)

    def _cast(self, name: str, args: tuple, result: Any) -> None:
        """Remember where a whole-tensor dtype cast came from (at most 16 casts per call)."""
        import torch

        if name == "_to_copy":
            source, made = (args[0] if args else None), result
        else:
            made, source = (args[0], args[1]) if len(args) > 1 else (None, None)
        if not isinstance(source, torch.Tensor) or not isinstance(made, torch.Tensor):
            return
        found = _storage(made)
        if (
            found
            and found[1]
            and source.shape == made.shape
            and found != _storage(source)
            and made.is_contiguous()
        ):
            self.casts.pop(found[0], None)
            if len(self.casts) < 16:
                self.casts[found[0]] = (source, int(made.storage_offset()), int(made.numel()))

    def cast_source(self, got: Any) -> Any:
        """What `got` holds the cast of, as a view of the same shape over the source's memory, or None: `got`
        may be a cast (or a copy_ into a buffer of another dtype), a view of one (`out32.to(x.dtype)
        .reshape(-1)[:n]`), or the last of a chain of casts (`res.copy_(out64.type_as(x))`): followed back
        through up to four casts whose two sides are contiguous and of one shape."""
        import torch

        view = got
        for _ in range(4):
            found = _storage(view)
            cast = self.casts.get(found[0]) if found else None
            if cast is None:
                return view if view is not got else None
            source, start, numel = cast
            if not (isinstance(source, torch.Tensor) and source.is_contiguous()):
                return None
            first = view.storage_offset() - start  # the view's first element, counted in the cast's result
            last = first + sum((n - 1) * st for n, st in zip(view.shape, view.stride(), strict=True))
            if view.numel() and (first < 0 or last >= numel or min(view.stride(), default=0) < 0):
                return None  # reaches outside the cast's result
            try:  # the same element offsets and strides, over the source's memory
                view = source.as_strided(view.shape, view.stride(), source.storage_offset() + first)
            except RuntimeError:
                return None
        return None

    def _origins(self, t) -> frozenset[str]:
        """The inputs whose values tensor t holds or came from (none for memory the taint does not cover)."""
        found = _storage(t) if _valued(t) else None
        if found is None:
            return frozenset()
        for start, (nbytes, *_) in self.taint.items():
            if start <= found[0] < start + nbytes and self._live(start):
                return self.sources.get(start, frozenset())
        return frozenset()

    def _claim(self, start: int, nbytes: int) -> None:
        """Forget what was known of memory a new tensor now occupies: freed storages are reused by the
        allocator, and a fresh buffer at a computed tensor's old address holds nothing of it."""
        for old, (size, *_) in list(self.taint.items()):
            if old not in self.inputs and old < start + nbytes and start < old + size:
                self._drop(old)

    def __enter__(self):
        from torch.overrides import TorchFunctionMode
        from torch.utils._python_dispatch import TorchDispatchMode

        watch = self

        class _Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                with contextlib.suppress(Exception):  # bytes a tracked buffer got with no operator writing
                    watch._before(args, kwargs)
                # a learner's operator (or the learner's kernel of an aten one): its body is watched too;
                # every other aten operator: nothing more on this path
                own = _registered(func) or watch._overridden(func)
                result = watch._run_operator(func, _Mode, args, kwargs) if own else func(*args, **kwargs)
                with contextlib.suppress(Exception):  # the watch never breaks the learner's call
                    watch._saw(func, args, kwargs, result, own)
                    watch._after(args, kwargs)
                return result

        class _Blind(TorchFunctionMode):
            """Sees torch's functions (not operators) only to follow those called while the Python dispatch
            key is excluded, when `_Mode` sees nothing (`TorchWork._hidden`)."""

            def __torch_function__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                if not _python_key_off():
                    return func(*args, **kwargs)
                result = func(*args, **kwargs)
                with contextlib.suppress(Exception):
                    watch._hidden(func, args, kwargs, result)
                return result

        self._mode = _Mode()
        self._mode.__enter__()
        self._blind = _Blind()
        self._blind.__enter__()
        self._watch_numpy()
        self._runs = self._watch_runs()
        return self

    def _watch_runs(self) -> Any:
        """For the call, every kernel run (a JITFunction's, the interpreter's, a compiled kernel's
        `k[grid](...)`; recorded or not: the lab's own timing runs of an autotuner are not) is seen before it
        runs (`_kernel_given`): a buffer's bytes are compared before the kernel writes them."""
        from tritonlab.engine.memcheck.hooks import _kernel_file
        from tritonlab.engine.memcheck.launches import _tensor_ptrs, watch_kernel_runs

        watch = self

        def given(fn: Any, args: tuple, kwargs: dict, warmup: bool) -> None:
            if warmup:
                return
            with contextlib.suppress(Exception):
                watch._launched()  # the records of earlier launches first
                watch._given({"file": _kernel_file(fn), "ptrs": _tensor_ptrs(args, kwargs)}, running=True)

        return watch_kernel_runs(given)

    def _watch_numpy(self) -> None:
        """For the call, wrap what takes an input's values out of torch (Tensor.numpy, Tensor.tolist) and
        what brings values back (torch.from_numpy, torch.as_tensor, torch.tensor). After an input's values
        left from a learner line, a tensor made from outside data on a learner line holds what numpy or Python
        computed: it is tainted as computed by "numpy" (line: the export's), so handing it, or a copy of it,
        to a kernel is torch-work like any computed buffer. Restored on exit unless the learner's file
        replaced one meanwhile (the tamper watch says so)."""
        import torch

        watch = self

        def exporting(original, views: bool = False, saves: bool = False):
            # views: the result shares the tensor's memory; saves: its bytes are serialised (pickle)
            def export(value, *args, **kwargs):
                with contextlib.suppress(Exception):
                    watch._export(value, views=views, saves=saves)
                return original(value, *args, **kwargs)

            return export

        def saving(original):  # torch.save(obj, f): every tensor and storage in obj is serialised
            def save(obj, *args, **kwargs):
                with contextlib.suppress(Exception):
                    for value in _saved_values(obj, []):
                        watch._export(value, saves=True)
                return original(obj, *args, **kwargs)

            return save

        def importing(original):
            def make(*args, **kwargs):
                result = original(*args, **kwargs)
                with contextlib.suppress(Exception):
                    if watch._learner_line() is not None:
                        found = _storage(result)
                        if watch.numpy_lines and found and found[1] and _valued(result):
                            exported, name = watch.numpy_lines[0]
                            watch._claim(*found)
                            watch._set_taint(
                                found[0], found[1], name, "numpy", exported, result.untyped_storage()
                            )
                            if watch.perturb:
                                with torch.no_grad():
                                    result.add_(1.0)
                        if _valued(result):  # numpy may still write into the memory it shares
                            watch._track(result)
                return result

            return make

        import torch.utils.dlpack

        patched = []
        for owner, attr, wrap in (
            (torch.Tensor, "numpy", functools.partial(exporting, views=True)),
            (torch.Tensor, "tolist", exporting),
            (torch.Tensor, "item", exporting),
            (torch.Tensor, "__dlpack__", exporting),
            (torch.Tensor, "__reduce_ex__", functools.partial(exporting, saves=True)),  # pickle, copy
            (torch.UntypedStorage, "tolist", exporting),
            (torch, "save", saving),
            (torch, "from_numpy", importing),
            (torch.Tensor, "new_tensor", importing),
            (torch, "as_tensor", importing),
            (torch, "asarray", importing),
            (torch, "tensor", importing),
            (torch, "frombuffer", importing),
            (torch, "from_dlpack", importing),
            (torch.utils.dlpack, "from_dlpack", importing),
        ):
            original = getattr(owner, attr, None)
            if original is None:
                continue
            ours = wrap(original)
            patched.append((owner, attr, vars(owner).get(attr), ours))
            setattr(owner, attr, ours)
        self._numpy = patched

    def __exit__(self, *exc):
        for owner, attr, own, ours in self._numpy or []:
            if vars(owner).get(attr) is ours:  # else the learner's file replaced it: the watch says so
                if own is None:
                    delattr(owner, attr)
                else:
                    setattr(owner, attr, own)
        self._numpy = None
        if self._runs is not None:
            self._runs.restore()
            self._runs = None
        with contextlib.suppress(Exception):  # the launches after the last operator
            self._launched()
        if self._blind is not None:
            length, at = _TORCH_C["function_stack"]
            with contextlib.suppress(Exception):  # only our own mode, where it is still on top
                if length() and at(length() - 1) is self._blind:
                    self._blind.__exit__(*exc)
            self._blind = None
        if self._mode is not None:
            self._mode.__exit__(*exc)
            self._mode = None
        return False
