"""Loading the learner's file and turning whatever it raises into a kind, a message and a line."""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import re
import sys
import traceback
from pathlib import Path

from tritonlab.engine import gpu_memory, interpreter_support
from tritonlab.engine.protocol import error

CUDA_FAULT_MARKERS = (
    "illegal memory access",
    "illegal address",
    "device-side assert",
    "misaligned address",
    "unspecified launch failure",
    "CUDA error: an illegal instruction",
)


class LearnerError(Exception):
    def __init__(self, info: dict):
        super().__init__(info.get("message"))
        self.info = info


def load_module(path: str | Path):
    """Import the learner's file as a fresh module. Raises LearnerError(kind=syntax|runtime)."""
    path = Path(path).resolve()
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise LearnerError(
            error(
                "load", f"cannot read {path}: {exc}", file=str(path), exception=f"{type(exc).__name__}: {exc}"
            )
        ) from None
    try:
        compile(source, str(path), "exec")
    except SyntaxError as exc:
        message = f"{type(exc).__name__}: {exc.msg}"
        raise LearnerError(
            error("syntax", message, exc.lineno, column=exc.offset, file=str(path), exception=message)
        ) from None
    digest = hashlib.sha1(f"{path}:{source}".encode()).hexdigest()[:12]
    name = f"tritonlab_learner_{digest}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, f"{path} is a .py file, which always has a loader"
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # triton.jit and inspect need to find the module
    from tritonlab.engine.triton_compat import check_autotune_names

    check_autotune_names()  # a misnamed autotune key fails on Triton 3.6 as it does on 3.9
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        sys.modules.pop(name, None)
        raise LearnerError(classify(exc, str(path))) from None
    return module


def _frames(exc: BaseException | None):
    """All traceback frames of an exception and its causes, innermost last."""
    chain: list[BaseException] = []
    seen = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        chain.append(exc)
        exc = exc.__cause__ or exc.__context__
    frames: list[traceback.FrameSummary] = []
    for item in reversed(chain):
        frames.extend(traceback.extract_tb(item.__traceback__))
    return chain, frames


def name_of(node) -> str:
    """The name an AST node calls by: an attribute's last part (`tl.sum` -> "sum"), a plain name's id, else ""
    (what the judge's source rules compare against a call's or a reference's name)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    return getattr(node, "id", "")


def same_file(a: str | None, b: str | None) -> bool:
    """Whether two paths name one file (falls back to comparing absolute paths when one does not exist)."""
    if not a or not b:
        return False
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.abspath(a) == os.path.abspath(b)


_GENERATED_GRADS = re.compile(
    r"GeneratedBackwardFor_\w+ returned an incorrect number of gradients \(expected (\d+), got (\d+)\)"
)


_NON_FUNCTIONAL = re.compile(
    r"Cannot register autograd formula for non-functional operator <CustomOpDef\(([\w.:]+)\)> "
    r"with schema (.*?)\. Please create"
)
#: the arguments a schema marks written: `Tensor(a0!) x`, `Tensor(a1!)? bias`, `Tensor(a2!)[] xs`
_SCHEMA_WRITTEN = re.compile(r"\(\w+!\)(?:\[\])?\??\s+(\w+)")


def _mutates_declared(learner_file: str, op: str) -> tuple[int | None, str | None]:
    """(line, source text) of the `mutates_args=` of the decorator in the learner's file that registers the
    operator `op` (`@triton_op("lib::name", mutates_args=...)`, custom_op alike); (None, None) when none is
    found (a name built at run time, a registration without a decorator)."""
    try:
        source = Path(learner_file).read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None, None
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for deco in node.decorator_list:
            if not isinstance(deco, ast.Call) or not deco.args:
                continue
            first = deco.args[0]
            if not isinstance(first, ast.Constant) or first.value != op:
                continue
            kw = next((k for k in deco.keywords if k.arg == "mutates_args"), None)
            if kw is None:
                return deco.lineno, None
            text = ast.get_source_segment(source, kw.value)
            return kw.value.lineno, (text or "")[:80] or None
    return None, None


_DOT_MIN = re.compile(r"Input shapes should have M >= \d+, N >= \d+ and K >= (\d+)")
_DESC_BASE = re.compile(
    r"(?:make_tensor_descriptor|TensorDescriptor(?:\.from_tensor)?)\(\s*(?:base=)?([\w.]+)"
)


def _dot_too_small(k: int, line: int | None, text: str) -> dict:
    """A tl.dot whose K is below NVIDIA's minimum for its operands (cause `dot-too-small`)."""
    return error(
        "compile",
        f"line {line}: tl.dot needs a K dimension of at least {k} for these operands on an "
        "NVIDIA GPU (the GPU compiler refuses smaller; the lab applies its rule here too) — a block "
        "sized from the input (next_power_of_2 of a short length) can fall below it: make that block "
        f"at least {k} (max({k}, triton.next_power_of_2(n))) and mask the extra lanes",
        line,
        exception=text,
        cause="dot-too-small",
        k=k,
    )


def _behind_named(exc: BaseException, name: str) -> BaseException | None:
    """The exception of class `name` in exc's chain (__cause__ / __context__), or None."""
    seen: set[int] = set()
    item: BaseException | None = exc
    pending: list[BaseException | None] = [exc]
    while pending:
        item = pending.pop(0)
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        if type(item).__name__ == name:
            return item
        pending += [item.__cause__, item.__context__]
    return None


_ARITY = re.compile(r"^(\w+)\(\) takes (\d+) positional arguments? but (\d+) (?:were|was) given")


def _backward_arity(learner_file: str, root: TypeError) -> tuple[str, int, int, int] | None:
    """(name, def line, gradients taken, gradients given) when a function of the learner's file registered as
    a backward (`register_autograd(name, ...)`) was called with more gradients than it takes."""
    found = _ARITY.match(str(root))
    if not found:
        return None
    name, takes, given = found.group(1), int(found.group(2)), int(found.group(3))
    try:
        tree = ast.parse(Path(learner_file).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, TypeError):
        return None
    registered = any(
        isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and n.func.attr == "register_autograd"
        and n.args
        and isinstance(n.args[0], ast.Name)
        and n.args[0].id == name
        for n in ast.walk(tree)
    )
    define = next((n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == name), None)
    if not registered or define is None or given <= takes:
        return None
    return name, define.lineno, takes - 1, given - 1  # less ctx


def _heuristics_above_autotune(learner_file: str, root: KeyError) -> tuple[str, int] | None:
    """(the missing key, the @triton.heuristics line) when a heuristic read a config's keyword that does not
    exist yet: @triton.heuristics stacked above @triton.autotune (decorators apply bottom-up, so the heuristic
    runs before a config is chosen) and the key is a keyword of the file's triton.Config dicts."""
    key = root.args[0] if root.args else None
    if not isinstance(key, str):
        return None
    try:
        lines = Path(learner_file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError, TypeError):
        return None
    code = [line.split("#", 1)[0].strip() for line in lines]
    if not any(f'"{key}"' in text or f"'{key}'" in text for text in code if "Config" in text or ":" in text):
        return None
    for number, text in enumerate(code, 1):
        if not text.startswith("@triton.heuristics"):
            continue
        for below in code[number : number + 4]:
            if below.startswith("@triton.autotune"):
                return key, number
            if below.startswith("def "):
                break
    return None


def classify(exc: BaseException, learner_file: str) -> dict:
    """kind: syntax | compile | oob | cuda-fault | runtime, with the learner's line when it can be found."""
    chain, frames = _frames(exc)
    root = chain[-1]
    learner_lines = [f.lineno for f in frames if same_file(f.filename, learner_file)]
    line = learner_lines[-1] if learner_lines else None

    try:
        from tritonlab.engine import memcheck

        oob, waits = memcheck.find_oob(exc), memcheck.find_waits_forever(exc)
    except Exception:
        oob = waits = None
    if oob is not None:
        info = oob.to_dict()
        return error("oob", oob.message, info.get("line") or line, detail=info)
    if waits is not None:
        facts = waits.to_dict()
        return error(
            "runtime",
            str(waits),
            waits.line or line,
            exception=f"{type(waits).__name__}: {waits}",
            cause="waits-forever",
            **{k: v for k, v in facts.items() if k != "line"},
        )

    text = " ".join(str(e) for e in chain)
    if any(marker in text for marker in CUDA_FAULT_MARKERS):
        return error(
            "cuda-fault",
            "the GPU reported a memory fault ("
            + _first_line(root)
            + "). On a GPU an out-of-bounds access poisons "
            "the CUDA context for good, so the worker is replaced. Check your masks and offsets; "
            "run the same case on the interpreter (--backend interpreter) to have the lab name the line.",
            line,
            exception=_first_line(root),
        )

    compile_error = None
    for item in chain:
        if type(item).__module__.startswith("triton.compiler") or type(item).__name__ == "CompilationError":
            compile_error = item
    if compile_error is not None:
        cline = _compilation_line(compile_error, learner_file)
        message = _compile_message(compile_error)
        small = _DOT_MIN.search(str(compile_error))
        if small:  # the GPU compiler's smallest tl.dot: said as on the interpreter
            return _dot_too_small(int(small.group(1)), cline or line, message)
        construct = _UNSUPPORTED_NODE.search(str(compile_error))
        kind_of = construct.group(1) if construct else None
        if kind_of is None and any(m in str(compile_error) for m in _RETURN_IN_LOOP):
            kind_of = "ReturnInLoop"
            cline = _return_under(learner_file, cline)
        if kind_of:  # said as on the interpreter (interpreter_support.UnsupportedConstruct)
            return error(
                "compile",
                message,
                cline or line,
                exception=message,
                cause="unsupported-construct",
                construct=kind_of,
            )
        carried = _LOOP_CARRIED.search(str(compile_error))
        if carried:  # said as on the interpreter (interpreter_support.LoopCarriedType)
            return _loop_carried_type(carried, cline, line, learner_file, message)
        refused = _GLOBAL_REFUSED.search(str(compile_error))
        if refused:  # said as on the interpreter (interpreter_support.GlobalNotConstexpr)
            known = _module_global(learner_file, refused.group(1))
            return error(
                "compile", message, cline or line, exception=message, cause="global-not-constexpr", **known
            )
        return error("compile", message, cline or line, exception=message)
    unsupported = _UNSUPPORTED_FUNCTION.search(str(root))
    if unsupported and isinstance(root, RuntimeError):
        # a GPU launch hashes every global its kernels reference and refuses a plain Python function
        message = _first_line(root)
        facts = _module_global(learner_file, unsupported.group(1))
        return error("compile", message, line, exception=message, cause="global-not-constexpr", **facts)
    if isinstance(root, interpreter_support.UnsupportedConstruct):
        # the interpreter's stand-in for the code generator's "unsupported AST node type": Python that a GPU
        # compile refuses (break, continue, raise, …), found in the function being launched or called
        at = getattr(root, "lineno", None)
        return error(
            "compile",
            str(root),
            at if same_file(getattr(root, "filename", None), learner_file) and isinstance(at, int) else line,
            exception=f"UnsupportedLanguageConstruct: {root}",
            cause="unsupported-construct",
            construct=getattr(root, "construct", None),
            function=getattr(root, "function", None),
        )
    if isinstance(root, interpreter_support.LoopCarriedType):
        # the interpreter's stand-in for the code generator's loop rule: a carried value changed its type
        facts = {k: v for k, v in root.facts.items() if k != "filename"}
        at = facts.pop("made_line", None) or facts.get("loop_line")
        return error(
            "compile",
            str(root),
            at if same_file(root.facts.get("filename"), learner_file) and isinstance(at, int) else line,
            exception=f"AssertionError: {root}",
            cause="loop-carried-type",
            **facts,
        )
    root_frames = traceback.extract_tb(root.__traceback__)
    innermost = root_frames[-1].filename if root_frames else ""
    root_lines = [f.lineno for f in root_frames if same_file(f.filename, learner_file)]
    if root_lines:
        line = root_lines[-1]
    elif any(type(item).__name__ == "InterpreterError" for item in chain):
        # the interpreter wraps a kernel's error once at the kernel's line and again at the launch: the
        # deepest wrapper that passes through the learner's file holds the kernel's own line
        for item in reversed(chain):
            inner = [
                f.lineno
                for f in traceback.extract_tb(item.__traceback__)
                if same_file(f.filename, learner_file)
            ]
            if inner:
                line = inner[-1]
                break
    if isinstance(root, interpreter_support.GlobalNotConstexpr):
        # the interpreter's stand-in for Triton's global rule: the kernel (at `line`) used a global a GPU
        # compile refuses
        message = str(root)
        return error(
            "compile",
            message,
            line,
            exception=f"NameError: {message}",
            cause="global-not-constexpr",
            **root.facts,
        )
    in_language = "/triton/language/" in innermost.replace("\\", "/")
    small = _DOT_MIN.search(str(root)) if isinstance(root, AssertionError) else None
    if small and learner_lines:
        # the GPU's smallest tl.dot, applied on the interpreter too (interpreter_support.gpu_dot_sizes)
        return _dot_too_small(int(small.group(1)), line, f"{type(root).__name__}: {root}")
    if in_language and learner_lines:
        text = f"{type(root).__name__}: {root}"
        return error("compile", text, line, exception=text)
    if isinstance(root, SyntaxError):
        return error("syntax", f"SyntaxError: {root.msg}", root.lineno, exception=f"SyntaxError: {root.msg}")
    extra: dict = {}
    conflict = _autotune_conflict(chain, frames)
    said: tuple[str, dict] | None = None
    if conflict:
        names = ", ".join(conflict)
        said = (
            f"the autotuner supplies {names} from the config it picks, and the launch passes {names} too — "
            "remove them from the launch (they belong in the triton.Config entries)",
            {"cause": "autotune-conflict", "names": conflict},
        )
    elif isinstance(root, TypeError) and (arity := _backward_arity(learner_file, root)) is not None:
        backward, def_line, takes, given = arity
        line = def_line
        said = (
            f"{backward}() (line {def_line}) takes {takes} gradient{'s' if takes != 1 else ''}, but torch "
            f"passes {given}: a registered backward gets one gradient per output of the forward operator (y "
            "and rstd give dy and a second one) — add a parameter for each (one you do not use can be "
            "ignored)",
            {
                "cause": "backward-arity",
                "name": backward,
                "takes": takes,
                "given": given,
                "def_line": def_line,
            },
        )
    elif isinstance(root, KeyError) and (order := _heuristics_above_autotune(learner_file, root)) is not None:
        key, line = order
        said = (
            f"@triton.heuristics (line {line}) sits above @triton.autotune, so it runs first, on the "
            f"launch's own arguments, before the autotuner has chosen a config: {key} does not exist yet — "
            "put @triton.heuristics below @triton.autotune (between it and @triton.jit)",
            {"cause": "heuristics-order", "name": key, "heuristics_line": line},
        )
    elif counts := _GENERATED_GRADS.search(str(root)):
        # torch's generated wrapper of a register_autograd backward counts one more on both sides (the
        # output's own slot): "expected 4, got 3" is 3 inputs and 2 gradients returned
        inputs, returned = int(counts.group(1)) - 1, int(counts.group(2)) - 1
        said = (
            f"your backward returned {returned} gradient{'s' if returned != 1 else ''} for an operator with "
            f"{inputs} inputs — return one per input, in order (None for a non-tensor input such as eps)",
            {"cause": "grad-count", "inputs": inputs, "returned": returned},
        )
    elif functional := _NON_FUNCTIONAL.search(str(root)):
        # torch's register_autograd on an operator whose schema marks an input written (mutates_args names
        # it): an autograd formula attaches to functional operators only
        op, written = functional.group(1), _SCHEMA_WRITTEN.findall(functional.group(2))
        at, declared = _mutates_declared(learner_file, op)
        names = ", ".join(written) or "an input"
        where = f"line {at}: " if at else ""
        said = (
            f"{where}the operator {op} declares {names} written in place (mutates_args={declared or '{…}'}), "
            "which makes it a non-functional operator, and torch attaches an autograd formula "
            "(register_autograd) only to a functional one — mutates_args lists only the inputs the operator "
            f"writes into: a forward that only reads {names} declares mutates_args={{}}",
            {
                "cause": "op-not-functional",
                "op": op,
                "args": written[:8],
                "mutates_line": at,
                "declared": declared,
            },
        )
    elif isinstance(root, TypeError) and "has no len()" in str(root) and _launch_line(learner_file, line):
        said = (
            "the grid must be a tuple (or a function returning one), not a number: "
            "kernel[(triton.cdiv(n, BLOCK_SIZE),)](...) — note the comma",
            {"cause": "grid-not-tuple"},
        )
    elif "block offset start must be 16-byte aligned" in str(root) and line is not None:
        # the interpreter's check on a tensor descriptor's load/store coordinates: tile numbers given where
        # the element offsets of the block's corner belong (a GPU loads the wrong block, silently)
        import linecache

        call = linecache.getline(learner_file, line).strip()[:120]
        said = (
            f"line {line}: the descriptor's coordinates ({call}) are not 16-byte aligned — a descriptor's "
            "load and store take the element offsets of the block's corner (e.g. [pid_m * BLOCK_M, k]), not "
            "tile numbers",
            {"cause": "descriptor-offset", "call": call},
        )
    elif "base must be 16-byte aligned" in str(root) and line is not None:
        # a tensor descriptor (in the kernel or on the host) over a tensor whose first element is not 16-byte
        # aligned: valid input (a view into its buffer) that a descriptor cannot take
        import linecache

        call = linecache.getline(learner_file, line).strip()[:120]
        base = _DESC_BASE.search(call)
        name = base.group(1) if base else None
        said = (
            f"line {line}: a tensor descriptor's base must be 16-byte aligned, and "
            f"{name or 'this tensor'} starts elsewhere — a view that begins a few elements into its buffer "
            "(x[3:], a slice) is valid input: check data_ptr() % 16 in the wrapper and load such a tensor "
            "with pointers (or a contiguous copy) instead of a descriptor",
            {"cause": "descriptor-base", "call": call, "base": name},
        )
    elif isinstance(root, TypeError) and "failed to specialize argument of type: str" in str(root):
        # a GPU launch refuses a str for a parameter that is not tl.constexpr (the runner refuses it on the
        # interpreter too, naming the parameter): declare it tl.constexpr
        param, value = getattr(root, "param", None), getattr(root, "value", None)
        said = (
            (
                f"the kernel parameter {param} is given the str {value!r} and is not a tl.constexpr — a GPU "
                f"launch refuses a str argument: declare {param}: tl.constexpr"
            )
            if param
            else "a kernel argument is a str and its parameter is not a tl.constexpr — a GPU launch refuses "
            "a str argument: declare that parameter tl.constexpr",
            {"cause": "str-argument", "param": param, "value": value},
        )
    missing = _MISSING_ARGS.search(str(root)) if isinstance(root, TypeError) else None
    if said is None and missing and any("autotuner" in f.filename for f in frames):
        # a triton.Config of the autotuner's lacks a meta-parameter the kernel declares: the launch passes
        # the others, the config in use was to supply this one
        absent = re.findall(r"'(\w+)'", missing.group(1))
        said = (
            f"the autotuner's config in use sets no {' or '.join(absent)}, which the kernel needs: every "
            "triton.Config must set all of the kernel's tile parameters (not the launch: the config supplies "
            "them)",
            {"cause": "config-missing-param", "names": absent},
        )
    if (
        said is None
        and isinstance(root, TypeError)
        and "'float' object cannot be interpreted as an integer" in str(root)
        and _launch_line(learner_file, line)
    ):
        said = (
            "the grid holds a float — the number of programs must be a whole number: n / BLOCK_SIZE is true "
            "division, use triton.cdiv(n, BLOCK_SIZE)",
            {"cause": "grid-float"},
        )
    if said is None and isinstance(root, ValueError) and "mask has unsupported dtype" in str(root):
        # Triton's interpreter refuses a mask that is not a block of booleans; a GPU broadcasts a scalar one,
        # and a per-program guard ((pid + 1) * BLOCK <= n) then skips the last block's valid lanes silently
        said = (
            "the mask is not a block of booleans, one per lane: a comparison of scalars (one value for the "
            "whole program, like (pid + 1) * BLOCK_SIZE <= n_elements) or a block of integers — build it "
            "from the offsets, mask = offsets < n_elements, so the valid lanes of the last, partial block "
            "still load and store",
            {"cause": "mask-not-lanes"},
        )
    if said is None and "No valid autotuner configs after pruning" in str(root):
        # the learner's early_config_prune left nothing (a GPU's autotuner, or the lab's check of the GPU
        # configs on the interpreter): name the prune, the sizes and the count
        sizes = getattr(root, "sizes", None) or {}
        shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
        said = (
            f"your early_config_prune kept none of the GPU configs{' for ' + shown if shown else ''}: the "
            "autotuner stops there on a GPU — always keep at least one config",
            {
                "cause": "prune-empty",
                "sizes": sizes,
                "configs": getattr(root, "configs", None),
                "prune": getattr(root, "prune_name", None),
                "prune_line": getattr(root, "prune_line", None),
            },
        )
    perf = _behind_named(exc, "PerfModelFailed")
    if said is None and perf is not None:
        # the learner's perf_model, called as a GPU's autotuner calls it (the lab's check on the interpreter)
        name, at = getattr(perf, "model_name", None), getattr(perf, "model_line", None)
        said = (
            f"your perf_model{f' ({name}, line {at})' if at else ''} raised when the autotuner called it "
            f"({getattr(perf, 'error', '')}): the autotuner calls it once per config with keywords only — "
            "perf_model(**the kernel's arguments, **the config's meta-parameters) — and ranks configs by the "
            "number it returns; take those names as parameters (or **kwargs)",
            {"cause": "perf-model", "model": name, "model_line": at, "error": getattr(perf, "error", None)},
        )
    if said is None and type(root).__name__ == "OutOfResources":
        # Triton refused to load the compiled kernel: it needs more of a per-program resource than the GPU has
        resource = getattr(root, "name", None)
        required, limit = getattr(root, "required", None), getattr(root, "limit", None)
        said = (
            f"the kernel needs {required} of {resource} per program and this GPU gives {limit}",
            {"cause": "out-of-resources", "resource": resource, "required": required, "limit": limit},
        )
    if said is None and gpu_memory.out_of_memory(root) is not None:
        # the GPU was full when the learner's call asked for memory: torch's numbers say how full, and whether
        # other processes hold it (a shared server) or the call asked for more than the GPU has
        return dict(gpu_memory.oom_error(root, "learner", line), traceback=_short_tb(frames))
    if said is not None:  # a cause the lab recognised: its sentence, Triton's words kept as the exception
        message, facts = said
        exception = f"{type(root).__name__}: {root}"
        return error("runtime", message, line, traceback=_short_tb(frames), exception=exception, **facts)
    if isinstance(root, PermissionError) and _sandboxed():
        extra["cause"] = "sandbox"  # the runner's confinement said no (a signal to the judge, a ptrace, …)
    if type(root).__name__ == "NeedsGpu" and type(root).__module__.endswith("interpreter_support"):
        extra["cause"] = "needs-gpu"  # device properties asked of the interpreter (the persistent softmax)
    return error(
        "runtime",
        f"{type(root).__name__}: {root}",
        line,
        traceback=_short_tb(frames),
        exception=f"{type(root).__name__}: {root}",
        **extra,
    )


def _sandboxed() -> bool:
    from tritonlab.engine import sandbox

    return sandbox.signals_guarded()


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0] if text else type(exc).__name__


_UNSUPPORTED_NODE = re.compile(r"unsupported AST node type: (\w+)")
_RETURN_IN_LOOP = (  # Triton's two words for a return inside a compiled loop (under an if; bare)
    "Cannot have `return` statements inside `while` or `for` statements",
    "We use SCF, so the loop body should only have one block",
)
_LOOP_CARRIED = re.compile(
    r"Loop-carried variable (\w+) has initial type (.+?) but is re-assigned to (.+?) in loop"
)


def _loop_carried_type(
    found: re.Match, loop_line: int | None, line: int | None, learner_file: str, message: str
):
    """The GPU compiler's "Loop-carried variable m has initial type fp32 but is re-assigned to <['64'], fp32>"
    (its node is the loop): the facts the interpreter's LoopCarriedType gives, the new value's line read from
    the learner's file."""
    from tritonlab.engine.contracts import file_tree

    facts = interpreter_support.loop_facts(
        found.group(1), found.group(2), found.group(3), loop_line, file_tree(learner_file)
    )
    at = facts.pop("made_line", None) or loop_line or line
    return error("compile", message, at, exception=message, cause="loop-carried-type", **facts)


_GLOBAL_REFUSED = re.compile(r"Cannot access global variable (\w+) from within @jit'ed")
_UNSUPPORTED_FUNCTION = re.compile(r"Unsupported function referenced: <function (\w+) at ")


def _module_global(learner_file: str, name: str) -> dict:
    """The facts the interpreter's refusal gives (interpreter_support.global_facts), for a global the GPU
    compile refused: read from the learner's module as loaded."""
    module = next(
        (
            m
            for m in list(sys.modules.values())
            if same_file(getattr(m, "__file__", None) or "", learner_file)
        ),
        None,
    )
    if module is None or name not in vars(module):
        return {"name": name, "value_type": None, "plain_function": False, "value": None, "annotated": False}
    return interpreter_support.global_facts(name, vars(module)[name], vars(module).get("__annotations__"))


def _return_under(learner_file: str, line: int | None) -> int | None:
    """Triton 3.6's GPU compile names the `if` around a `return` inside a loop (the interpreter's check names
    the `return`): the first `return` within the statement that starts at `line`, else `line`."""
    if line is None:
        return None
    try:
        tree = ast.parse(Path(learner_file).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return line
    starts = [n for n in ast.walk(tree) if isinstance(n, ast.stmt) and n.lineno == line]
    returns = sorted(r.lineno for n in starts for r in ast.walk(n) if isinstance(r, ast.Return))
    return returns[0] if returns else line


def _compile_message(exc: BaseException) -> str:
    text = str(exc).strip()
    lines = [ln for ln in text.splitlines() if ln.strip()]
    # Triton's message is "at L:C:\n<source excerpt>\n<error>"; keep the error, drop the excerpt.
    tail = [ln for ln in lines if not ln.startswith(("at ", " "))]
    return f"{type(exc).__name__}: " + (tail[-1] if tail else (lines[-1] if lines else ""))


def _compilation_line(exc: BaseException, learner_file: str) -> int | None:
    """Triton reports the node's line relative to the @jit function's source, which starts at its `def`."""
    lineno = getattr(getattr(exc, "node", None), "lineno", None)
    src = getattr(exc, "src", None)
    if lineno is None or not isinstance(src, str) or not src.strip():
        return None
    first = src.strip().splitlines()[0].strip()
    try:
        lines = Path(learner_file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for index, text in enumerate(lines, 1):
        if text.strip() == first:
            return index + lineno - 1
    return None


def _short_tb(frames) -> str:
    keep = [
        f for f in frames if "/site-packages/" not in f.filename and "/tritonlab/engine/" not in f.filename
    ]
    return "".join(traceback.format_list(keep[-6:]))


def static_range_misuse(path: str | Path) -> dict | None:
    """`tl.static_range(degree)` unrolls at compile time, so its bounds must be tl.constexpr; the interpreter
    runs it as a plain range and would pass a runtime `degree` that a GPU refuses to compile. The first such
    call in a @triton.jit function, as a compile error at its line (cause `static-range-runtime`), or None."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
        return None
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef) or not any("jit" in ast.unparse(d) for d in fn.decorator_list):
            continue
        runtime = {
            a.arg
            for a in fn.args.args + fn.args.kwonlyargs
            if a.annotation is None or "constexpr" not in ast.unparse(a.annotation)
        }
        for call in ast.walk(fn):
            if not isinstance(call, ast.Call):
                continue
            name = name_of(call.func)
            if name != "static_range":
                continue
            used = [
                n.id
                for arg in [*call.args, *(k.value for k in call.keywords)]
                for n in ast.walk(arg)
                if isinstance(n, ast.Name) and n.id in runtime
            ]
            if used:
                message = (
                    "tl.static_range unrolls the loop at compile time, so its bounds must be tl.constexpr, "
                    f"but {used[0]} is a runtime argument of {fn.name} — use range({used[0]}) (or tl.range), "
                    f"or make {used[0]} a tl.constexpr"
                )
                return error(
                    "compile",
                    message,
                    call.lineno,
                    file=str(path),
                    cause="static-range-runtime",
                    name=used[0],
                    kernel=fn.name,
                    exception=message,
                )
    return None


_CONFLICT = re.compile(r"Conflicting meta-parameters: ([\w, ]+)")
_MULTIPLE = re.compile(r"got multiple values for (?:keyword )?argument '(\w+)'")


def _autotune_conflict(chain: list, frames: list) -> list[str] | None:
    """The meta-parameters a launch passes although its @triton.autotune config sets them: Triton says
    "Conflicting meta-parameters: BLOCK_M, ..." on a GPU, the interpreter "run() got multiple values for
    keyword argument 'BLOCK_M'" from inside the autotuner."""
    for exc in chain:
        found = _CONFLICT.search(str(exc))
        if found:
            return [n.strip() for n in found.group(1).split(",") if n.strip()]
    through_autotuner = any(f.filename.replace("\\", "/").endswith("runtime/autotuner.py") for f in frames)
    for exc in chain:
        found = _MULTIPLE.search(str(exc))
        if found and isinstance(exc, TypeError) and through_autotuner:
            return [found.group(1)]
    return None


_MISSING_ARGS = re.compile(r"missing \d+ required (?:positional |keyword-only )?arguments?: (.+)")


def _launch_line(file: str, line: int | None) -> bool:
    """Whether the learner's line launches a kernel: `name[grid](` on it."""
    import linecache

    text = linecache.getline(file, line) if line else ""
    return bool(re.search(r"\w\s*\[[^\]]*\]\s*\(", text))
