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
their own checks (OpRecorder)."""

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
    import ast

    from tritonlab.engine.contracts import file_tree

    tree = file_tree(path)
    if tree is None:
        return []
    if any(
        isinstance(n, ast.With) and any("torch.device" in ast.unparse(i.context_expr) for i in n.items)
        for n in ast.walk(tree)
    ):
        return []  # `with torch.device(x.device):` sets the default device: no call lacks one
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
    return spans


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

    # -- the learner's kernels own what they were given ----------------------------------------------------

    def _launched(self) -> None:
        """A learner launch given a buffer torch computed from an input (x + y, addcmul, a ** b handed to the
        kernel): torch did that part of the work (a fact, with the operator's line). From then on every
        buffer the launch was given is the kernel's (its own output, a scratch it fills)."""
        launches = self.launches()
        for launch in launches[self._seen_launches :]:
            if not same_file(launch.get("file"), self.learner_file):
                continue
            for ptr in launch.get("ptrs") or []:
                for start, (nbytes, made_at) in self.default_device.items():
                    if start <= ptr < start + nbytes and not any(
                        d["line"] == made_at for d in self.device_found
                    ):
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
                    if op is not None and line is not None:
                        if not self._self_check(start, launch):
                            self._found(op, name, line, handed=True)
                        elif len(self.excused) < 8 and not any(e["line"] == line for e in self.excused):
                            self.excused.append({"op": op, "input": name, "line": line, "handed": True})
                    del self.taint[start]
        self._seen_launches = len(launches)

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
            for start, (nbytes, name, op, line) in self.taint.items():
                if start <= found[0] < start + nbytes:
                    return name, op, line
        return None

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
            name = os.path.abspath(raw)
            if name not in _TRANSPARENT and not name.startswith(_TORCH_DIR + os.sep) and not _stdlib(name):
                return frame.f_lineno if same_file(name, self.learner_file) else None
            frame = frame.f_back
        return None

    def _saw(self, func, args, kwargs, result) -> None:
        self._launched()
        if _registered(func):
            return  # a registered operator (lesson 12's triton_op): its outputs are its kernels' work
        name = _base_name(func)
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
            and HEAVY.fullmatch(source[1])
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
                self.taint[found[0]] = (found[1], *made)
                self.sources[found[0]] = origin

    @functools.cached_property
    def namespaces(self) -> frozenset[str]:
        """Operator namespaces the learner's file registers ("p11lib" of torch.library.define("p11lib::f")):
        read the first time a registered operator runs, never for a call that has none."""
        return _namespaces(self.learner_file)

    def _run_operator(self, func, mode: Callable, args: tuple, kwargs: dict) -> Any:
        """A registered operator, with its Python body watched: a custom_op/triton_op body swapped for the
        call (`_watched_body`), else a define + impl operator of the learner's namespace run below the Python
        key (`_below_python`) when no other mode below must see it."""
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
            if start <= found[0] < start + nbytes:
                return self.sources.get(start, frozenset())
        return frozenset()

    def _claim(self, start: int, nbytes: int) -> None:
        """Forget what was known of memory a new tensor now occupies: freed storages are reused by the
        allocator, and a fresh buffer at a computed tensor's old address holds nothing of it."""
        for old, (size, *_) in list(self.taint.items()):
            if old not in self.inputs and old < start + nbytes and start < old + size:
                del self.taint[old]

    def __enter__(self):
        from torch.utils._python_dispatch import TorchDispatchMode

        watch = self

        class _Mode(TorchDispatchMode):
            def __torch_dispatch__(self, func, types, args=(), kwargs=None):
                kwargs = kwargs or {}
                if _registered(func):  # a learner's operator: its body is watched too
                    result = watch._run_operator(func, _Mode, args, kwargs)
                else:  # every aten operator: nothing more on this path
                    result = func(*args, **kwargs)
                with contextlib.suppress(Exception):  # the watch never breaks the learner's call
                    watch._saw(func, args, kwargs, result)
                return result

        self._mode = _Mode()
        self._mode.__enter__()
        self._watch_numpy()
        return self

    def _watch_numpy(self) -> None:
        """For the call, wrap what takes an input's values out of torch (Tensor.numpy, Tensor.tolist) and
        what brings values back (torch.from_numpy, torch.as_tensor, torch.tensor). After an input's values
        left from a learner line, a tensor made from outside data on a learner line holds what numpy or Python
        computed: it is tainted as computed by "numpy" (line: the export's), so handing it, or a copy of it,
        to a kernel is torch-work like any computed buffer. Restored on exit unless the learner's file
        replaced one meanwhile (the tamper watch says so)."""
        import torch

        watch = self

        def exporting(original, views: bool = False):  # views: the result shares the tensor's memory
            def export(tensor, *args, **kwargs):
                with contextlib.suppress(Exception):
                    source = watch._source([tensor]) if isinstance(tensor, torch.Tensor) else None
                    line = watch._learner_line()
                    if source is not None and line is not None and len(watch.numpy_lines) < 4:
                        watch.numpy_lines.append((line, source[0]))
                    elif source is None and line is not None and views:
                        # a buffer of the learner's own as a numpy view: numpy may write into it
                        # (`lse.numpy()[:] = ...`) with no operator seeing it; its bytes now, to compare
                        found = _storage(tensor)
                        if found and found[1] and _valued(tensor) and len(watch.numpy_views) < 8:
                            storage = tensor.untyped_storage()
                            watch.numpy_views[found[0]] = (found[1], storage, _snapshot(storage))
                return original(tensor, *args, **kwargs)

            return export

        def importing(original):
            def make(*args, **kwargs):
                result = original(*args, **kwargs)
                with contextlib.suppress(Exception):
                    if watch.numpy_lines and watch._learner_line() is not None:
                        found = _storage(result)
                        if found and found[1] and _valued(result):
                            exported, name = watch.numpy_lines[0]
                            watch._claim(*found)
                            watch.taint[found[0]] = (found[1], name, "numpy", exported)
                            watch.sources[found[0]] = frozenset({name})
                            if watch.perturb:
                                with torch.no_grad():
                                    result.add_(1.0)
                return result

            return make

        import torch.utils.dlpack

        patched = []
        for owner, attr, wrap in (
            (torch.Tensor, "numpy", functools.partial(exporting, views=True)),
            (torch.Tensor, "tolist", exporting),
            (torch.Tensor, "item", exporting),
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
        with contextlib.suppress(Exception):  # the launches after the last operator
            self._launched()
        if self._mode is not None:
            self._mode.__exit__(*exc)
            self._mode = None
        return False
