"""Contract checks that verify runs around the learner's wrapper: facts, never sentences.

Why a module of its own: values that match torch are not the whole contract a lesson teaches. A wrapper may
not take the tile sizes the lab would like to vary (the official tutorials' matmul takes none), a sweep knob
may never reach the launch, an output may come back in the wrong layout. Each check here returns fact dicts
`{"kind": ..., <facts>, "message": <English, for old clients>}`; the UI makes the sentences.
"""

from __future__ import annotations

import ast
import contextlib
import copy
import functools
import inspect
import math
import re
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tritonlab.engine.learner import name_of

#: What the judge accepts from a runner's contract facts and notes (anything else is dropped, never trusted).
FACT_KINDS = frozenset(
    {
        "grid-size",
        "output-layout",
        "knob-ignored",
        "kernel-bypassed",
        "autotune-key",
        "autotune-configs",
        "autotune-missing",
        "launch-option-param",
        "allocator-missing",
        "api-missing",
    }
)
NOTE_KINDS = frozenset({"tiles-not-varied", "far-rows-contiguous"})


def split_kwargs(wrapper, kwargs: dict) -> tuple[dict, list[str]]:
    """(the variant's keywords the wrapper accepts, the names it does not take).

    A wrapper with no tile keywords is verified with its own tiles (a note, not a failure): passing them
    anyway would fail a correct file with "unexpected keyword argument 'BLOCK_M'"."""
    if not kwargs:
        return {}, []
    try:
        params = inspect.signature(wrapper).parameters.values()
    except (TypeError, ValueError):
        return dict(kwargs), []
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return dict(kwargs), []
    names = {
        p.name
        for p in params
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    }
    accepted = {k: v for k, v in kwargs.items() if k in names}
    return accepted, [k for k in kwargs if k not in names]


def reference_keywords(expression: str) -> set[str]:
    """The wrapper keywords a reference expression reads: `kw.get("activation")`, `kw["activation"]`,
    `"activation" in kw`. Such a keyword changes the expected values, so a wrapper that does not take it
    cannot be verified with its own defaults (unlike a tile size)."""
    import ast

    try:
        tree = ast.parse(expression, mode="eval")
    except SyntaxError:
        return set()

    def is_kw(node) -> bool:
        return isinstance(node, ast.Name) and node.id == "kw"

    found = set()
    for node in ast.walk(tree):
        key = None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args:
            if is_kw(node.func.value) and node.func.attr == "get":
                key = node.args[0]
        elif isinstance(node, ast.Subscript) and is_kw(node.value):
            key = node.slice
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In):
            key = node.left if is_kw(node.comparators[0]) else None
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            found.add(key.value)
    return found


def missing_keywords(exercise, wrapper, optional: dict, dropped: list[str]) -> list[str]:
    """Keywords a case must pass that the wrapper's signature does not take: the optional inputs the case
    passes (a variant's "@with") and the variant keywords the reference reads (`reference_keywords`)."""
    _, not_taken = split_kwargs(wrapper, optional)
    read = reference_keywords(exercise.reference)
    return list(not_taken) + [name for name in dropped if name in read]


def far_rows_contiguous(name: str, short: dict) -> dict:
    """The far_rows case ran with its input's rows contiguous: the GPU had too little free memory (`free`
    in bytes), or the runner's address-space limit left no room for the span (`free` None)."""
    room = (
        f"{short['free'] / 2**30:.1f} GiB of GPU memory are free"
        if short.get("free") is not None
        else "the runner's address-space limit leaves no room for them"
    )
    return {
        "kind": "far-rows-contiguous",
        "input": name,
        **short,
        "message": f"this case ran with the rows of {name} contiguous: rows 2**30 elements apart span "
        f"{short['needed'] / 2**30:.1f} GiB and {room}, so an int32 row offset is not checked here",
    }


def tiles_not_varied(dropped: list[str], entry: str) -> dict:
    return {
        "kind": "tiles-not-varied",
        "names": list(dropped),
        "entry": entry,
        "message": f"{entry}() takes no {', '.join(dropped)} argument, so this case ran with the tile sizes "
        "your wrapper chooses (the lab could not vary them)",
    }


# ----------------------------------------------------------------------------------------------------------
# Per-case checks, from the exercise's [exercise.verify.contracts] and the recorded launches


def _first_row(exercise, inputs: dict, key: str, floating: bool = False):
    """Row 0 of the input a `key = "name"` contract names (a view to edit in place), or None."""
    name = exercise.verify.contracts.get(key)
    tensor = inputs.get(name) if name else None
    if tensor is None or getattr(tensor, "dim", lambda: 0)() < 1 or tensor.shape[0] == 0:
        return None
    if floating and not tensor.is_floating_point():
        return None
    return tensor[0]


def _row(exercise, inputs: dict, key: str, index: int):
    """Row `index` of the floating input a `key = "name"` contract names, when the input has a row there
    other than row 0 (row 0 belongs to zero_row / low_row / high_row), else None."""
    name = exercise.verify.contracts.get(key)
    tensor = inputs.get(name) if name else None
    if tensor is None or getattr(tensor, "dim", lambda: 0)() < 2 or not tensor.is_floating_point():
        return None
    rows = tensor.shape[0]
    index = index % rows if rows else 0
    return tensor[index] if rows >= 2 and index != 0 and tensor.shape[1] else None


def prepare_inputs(exercise, inputs: dict) -> None:
    """Data that makes a parameter matter, on row 0 of the input a contract names:
    - `zero_row = "x"` zeroes it, where dropping eps from rsqrt(mean(x²) + eps) turns 0 into 0 · inf = NaN
      (random data can never show eps missing);
    - `low_row = "x"` moves it into [-121, -119) (x / 100 - 120): every exp(x) there underflows to 0 in
      float32, so a running max started at 0, or padding loaded as 0, turn the row into 0/0. The band is
      narrow and near -120, not far below: exp2(x * log2 e) loses |x| * 2^-24 relative, and a float32 softmax
      checked at rtol 1e-5 must still pass when written the usual way;
    - `high_row = "logits"` lifts it by 100: exp(x) overflows float32 there (e^88.7 is the limit) unless the
      row's max is subtracted first; a log-sum-exp minus a picked logit does not change under it;
    - `outlier_row = "x"` puts outlier features in the hundreds on the LAST row (when there are two or more):
      its first element becomes 300 and its middle one -400 (LLM hidden states carry such features): x * x
      overflows float16 (65504) there, so squaring before the float32 cast shows;
    - `falling_row = "x"` splits row 1 (when there is one): its first half moves to x / 100 + 100, the rest to
      x / 100 - 100, so a later chunk's max is far below an earlier one's; a running max that is not carried
      (m_new = max(chunk) instead of maximum(m, max(chunk))) falls and exp(m - m_new) overflows."""
    row = _first_row(exercise, inputs, "zero_row")
    if row is not None:
        row.zero_()
    row = _first_row(exercise, inputs, "low_row", floating=True)
    if row is not None:
        row.div_(100).sub_(120)
    row = _first_row(exercise, inputs, "high_row", floating=True)
    if row is not None:
        row.add_(100)
    row = _row(exercise, inputs, "outlier_row", -1)
    if row is not None:
        row[0] = 300.0
        if row.shape[0] > 2:
            row[row.shape[0] // 2] = -400.0
    row = _row(exercise, inputs, "falling_row", 1)
    if row is not None and row.shape[0] >= 2:
        half = (row.shape[0] + 1) // 2
        row[:half].div_(100).add_(100)
        row[half:].div_(100).sub_(100)


def _output_layout(exercise, inputs: dict, got, learner_file: str | None) -> dict:
    """The `output-layout` fact for a returned output that is not row-major: transposed (strides (1, M) on
    [M, N]: a row-major [N, M] seen through .t()), padded rows (unit column stride, a row stride above the
    width: a slice of a wider buffer, `padded[:, :N]`, with the line assigning the returned name from such a
    slice when the entry has one), else its strides; `like` names an input with the output's shape and strides
    (only then is torch.empty_like of it the likely maker)."""
    strides, shape = tuple(got.stride()), tuple(got.shape)
    # a row-major [N, M] buffer returned through .t(): strides (1, N) on shape [M, N]
    transposed = got.dim() == 2 and min(shape) > 1 and strides == (1, shape[0])
    padded = got.dim() == 2 and shape[0] > 1 and strides[1] == 1 and strides[0] > shape[1]
    like = next(
        (
            name
            for name, value in inputs.items()
            if hasattr(value, "stride") and tuple(value.shape) == shape and tuple(value.stride()) == strides
        ),
        None,
    )
    fact: dict = {
        "kind": "output-layout",
        "strides": list(strides),
        "shape": list(shape),
        "expected": "contiguous",
        "transposed": transposed,
        "padded": padded and not transposed,
        "like": like,
    }
    if transposed:
        fact["message"] = (
            f"the output is laid out transposed (shape {shape}, strides {strides}): "
            f"the memory of a row-major {tuple(reversed(shape))} tensor, seen through .t() (or made by "
            "torch.empty_like of a transposed tensor) — allocate the output row-major in its own shape, "
            f"torch.empty({shape}, ...), and store each element at its place there"
        )
    elif fact["padded"]:
        where = _returned_slice(learner_file, exercise.entry)
        if where is not None:
            fact.update(line=where[0], source=where[1])
        at = f" (line {where[0]}: {where[1]})" if where is not None else ""
        fact["message"] = (
            f"the output comes back with strides {strides}: rows {strides[0]} elements apart holding "
            f"{shape[1]} each — a slice or view of a wider buffer{at}, not a row-major tensor: return a "
            f"tensor whose row stride is its width, torch.empty({shape}, ...)"
        )
    else:
        fact["message"] = (
            f"the output comes back with strides {strides}, not row-major: allocate it with "
            "torch.empty(x.shape, ...)" + (f" (torch.empty_like keeps {like}'s layout)" if like else "")
        )
    return fact


def _returned_slice(file: str | None, entry: str) -> tuple[int, str] | None:
    """In the entry function of the learner's file: the last assignment, before its last `return NAME`, of
    NAME from a subscript with a slice (`output = padded[:, :n_cols]`): (line, source). None otherwise."""
    tree = file_tree(file)
    if tree is None:
        return None
    function = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == entry), None)
    if function is None:
        return None
    returns = [n for n in ast.walk(function) if isinstance(n, ast.Return) and isinstance(n.value, ast.Name)]
    if not returns:
        return None
    last = max(returns, key=lambda n: n.lineno)
    name = last.value.id if isinstance(last.value, ast.Name) else ""
    assigned = [
        n
        for n in ast.walk(function)
        if isinstance(n, ast.Assign)
        and n.lineno < last.lineno
        and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
    ]
    if not assigned:
        return None
    final = max(assigned, key=lambda n: n.lineno)
    value = final.value
    if not isinstance(value, ast.Subscript):
        return None
    if not any(isinstance(x, ast.Slice) for x in ast.walk(value.slice)):
        return None
    return final.lineno, ast.unparse(final)[:80]


def _programs(launch: dict) -> int | None:
    grid = launch.get("grid")
    if not grid:
        return None
    total = 1
    for dim in grid:
        total *= int(dim)
    return total


def check_case(
    exercise, params: dict, kwargs: dict, inputs: dict, got, launches: list, learner_file: str | None = None
) -> list[dict]:
    """Facts about contract breaks in one case; `launches` are the learner's own (already filtered)."""
    spec = exercise.verify.contracts
    if not spec:
        return []
    facts: list[dict] = []
    if spec.get("programs") and launches:
        facts += _check_programs(spec["programs"], params, launches)
    if (
        spec.get("output_layout") == "contiguous"
        and hasattr(got, "is_contiguous")
        and not got.is_contiguous()
    ):
        facts.append(_output_layout(exercise, inputs, got, learner_file))
    for name in spec.get("knobs") or []:
        if name in kwargs:
            facts += _check_knob(name, kwargs[name], launches)
    for name in spec.get("input_storage") or []:
        tensor = inputs.get(name)
        if tensor is not None and launches and not _storage_reached(tensor, launches):
            facts.append(
                {
                    "kind": "kernel-bypassed",
                    "input": name,
                    "message": f"no kernel launch received {name} itself: the wrapper made a copy of it "
                    f"(e.g. {name}.contiguous()) and the kernel read the copy — pass {name} and "
                    "its strides to the kernel and let the kernel do the strided reads",
                }
            )
    return facts


def _grid_pattern(
    expression: str, params: dict, launched: int, expected: int
) -> tuple[str | None, int | None]:
    """What an over-launch looks like, from the lesson's `cdiv(n, BLOCK)`: cdiv's arguments swapped, one
    program per element (n programs), or one program too many (n // BLOCK_SIZE + 1 on an exact multiple); None
    when no rule fits (the counts alone are said then)."""
    from tritonlab.engine.inputs import evaluate

    found = re.fullmatch(r"\s*cdiv\(([^,()]+),([^,()]+)\)\s*", str(expression))
    if found:
        count, block = found.group(1).strip(), found.group(2).strip()
        swapped: int | None
        elements: int | None
        try:
            swapped = int(evaluate(f"cdiv({block}, {count})", params))
            elements = int(evaluate(count, params))
        except Exception:  # noqa: BLE001 - a lesson expression over names this case lacks: no pattern
            swapped = elements = None
        if swapped is not None and launched == swapped != expected:
            return "swapped", elements
        if elements is not None and launched == elements != expected and launched != expected + 1:
            return "per-element", elements
    if launched == expected + 1:
        return "plus-one", None
    return None, None


def _check_programs(expression: str, params: dict, launches: list) -> list[dict]:
    from tritonlab.engine.inputs import evaluate

    expected = int(evaluate(expression, params))
    for launch in launches:
        launched = _programs(launch)
        if launched is None or launched == expected:
            continue
        pattern, elements = (
            _grid_pattern(expression, params, launched, expected) if launched > expected else (None, None)
        )
        if launched < expected:
            advice = "one program per block, rounded up — use triton.cdiv(n, BLOCK_SIZE)"
        elif pattern == "swapped":
            advice = "triton.cdiv's arguments are swapped — use triton.cdiv(n, BLOCK_SIZE)"
        elif pattern == "per-element":
            advice = "one program per element, not per block — use triton.cdiv(n, BLOCK_SIZE)"
        elif pattern == "plus-one":
            advice = "the extra program has nothing to do — use triton.cdiv(n, BLOCK_SIZE), not "
            advice += "n // BLOCK_SIZE + 1"
        else:
            advice = "the extra programs have nothing to do — use triton.cdiv(n, BLOCK_SIZE)"
        return [
            {
                "kind": "grid-size",
                "launched": launched,
                "expected": expected,
                "grid": launch.get("grid"),
                "pattern": pattern,
                "elements": elements,
                "message": f"the grid launched {_count(launched, 'program')} for "
                f"{_count(expected, 'block')}: " + advice,
            }
        ]
    return []


def _check_knob(name: str, asked, launches: list) -> list[dict]:
    for launch in launches:
        seen = (launch.get("meta") or {}).get(name, (launch.get("knobs") or {}).get(name))
        if seen != asked:
            return [
                {
                    "kind": "knob-ignored",
                    "name": name,
                    "asked": asked,
                    "launched": seen,
                    "kernel": launch.get("kernel"),
                    "message": f"the wrapper was called with {name}={asked} "
                    f"but launched {launch.get('kernel')} with {name}={seen}: "
                    "pass it on to the launch, or the sweep times one kernel over and over",
                }
            ]
    return []


def _storage_reached(tensor, launches: list) -> bool:
    try:
        storage = tensor.untyped_storage()
        start, size = storage.data_ptr(), storage.nbytes()
    except Exception:  # noqa: BLE001
        return True
    return any(start <= ptr < start + max(size, 1) for launch in launches for ptr in launch.get("ptrs") or [])


# ----------------------------------------------------------------------------------------------------------
# Per-file checks


def check_file(exercise, module) -> list[dict]:
    """`autotune = { configs_function = "get_autotune_configs", min_configs = 2, key_any = ["M", "N", "K"] }`:
    an autotuner with no GPU configs or an empty key passes every value check on the interpreter (which gets
    one config by design), so the search space and key are read from the learner's module instead.
    `key_all = ["M", "N", "K"]`: each of them must be in the key (itself or a bucket named after it)."""
    facts: list[dict] = _launch_option_params(module) + _allocator_missing(module)
    facts += _api_missing(module, exercise.verify.contracts.get("calls_any"))
    spec = exercise.verify.contracts.get("autotune")
    if not isinstance(spec, dict):
        return facts
    tuners = _autotuners(module)
    if not tuners:
        return [{"kind": "autotune-missing", "message": "no @triton.autotune kernel in your file"}]
    wanted = list(spec.get("key_any") or [])
    for tuner in tuners:
        keys = list(getattr(tuner, "keys", None) or [])
        if not keys or (wanted and not set(keys) & set(wanted)):
            facts.append(
                {
                    "kind": "autotune-key",
                    "key": keys,
                    "expected_any": wanted,
                    "message": f"the autotune key is {keys}: with no shape argument in it the first winner "
                    f"is reused for every shape — key on {', '.join(wanted) or 'the shapes'}",
                }
            )
            continue
        missing = [name for name in spec.get("key_all") or [] if not _keyed(name, keys)]
        if missing:
            facts.append(
                {
                    "kind": "autotune-key",
                    "key": keys,
                    "expected_any": wanted,
                    "missing": missing,
                    "message": f"the autotune key {keys} leaves out {', '.join(missing)}: the config that "
                    f"won for one {missing[0]} is reused for every {missing[0]} (the 4096-row winner for 16 "
                    f"rows) — key on {', '.join(spec['key_all'])} (or a bucket, such as next_power_of_2(M))",
                }
            )
    function = getattr(module, spec.get("configs_function") or "", None)
    if callable(function):
        configs = _gpu_configs(function)
        count = len(configs) if configs is not None else None
        least = int(spec.get("min_configs", 2))
        if count is not None and count < least:
            facts.append(
                {
                    "kind": "autotune-configs",
                    "count": count,
                    "expected_min": least,
                    "function": spec.get("configs_function"),
                    "message": f"{spec.get('configs_function')}() returns {_count(count, 'config')} for a "
                    f"GPU: the autotuner needs at least {least} to choose from",
                }
            )
    return facts


def _keyed(name: str, keys: list) -> bool:
    """Whether an autotune key names this size: itself, or a bucket of it (M_BUCKET, M_POW2, BUCKET_M)."""
    return any(str(key) == name or name in str(key).split("_") for key in keys)


_LAUNCH_OPTIONS = ("num_warps", "num_stages", "num_ctas", "maxnreg")


def _launch_option_params(module) -> list[dict]:
    """A @triton.jit parameter named like a launch option that the kernel never reads: Triton binds
    `num_warps=` to the parameter, so the launch runs with the default and a sweep of it times one kernel (the
    interpreter ignores warps: it passes). A parameter the body reads is deliberate — the official persistent
    softmax takes `num_stages: tl.constexpr` for its `tl.range(..., num_stages=num_stages)` — and is left
    alone."""
    found = []
    for value in vars(module).values():
        fn = value
        while fn is not None and not hasattr(fn, "arg_names") and hasattr(fn, "fn"):
            fn = getattr(fn, "fn", None)  # @triton.autotune / @triton.heuristics around @triton.jit
        names = list(getattr(fn, "arg_names", None) or [])
        python = getattr(fn, "fn", None)
        if python is None or getattr(python, "__module__", None) != getattr(module, "__name__", None):
            continue  # a kernel imported from elsewhere
        for name in names:
            if name in _LAUNCH_OPTIONS and not _reads(python, name):
                try:
                    line = inspect.getsourcelines(python)[1]
                except (OSError, TypeError):
                    line = None
                kernel = getattr(python, "__name__", "the kernel")
                found.append(
                    {
                        "kind": "launch-option-param",
                        "name": name,
                        "kernel": kernel,
                        "line": line,
                        "message": f"{kernel} has a parameter named {name}: a launch option, not a kernel "
                        f"argument — on a GPU the parameter takes the value and the launch runs with the "
                        "default",
                    }
                )
    unique = {(f["kernel"], f["name"]): f for f in found}
    return list(unique.values())


def _reads(function, name: str) -> bool:
    """Whether the function's body loads the name (its own parameter list aside); True when unknowable."""
    import ast
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    except (OSError, TypeError, SyntaxError):
        return True
    node = next((n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    if node is None:
        return True
    return any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
        for statement in node.body
        for n in ast.walk(statement)
    )


def _calls_api(tree: ast.AST, wanted: set[str]) -> bool:
    """Whether the file calls one of `wanted`, under its own name (`tl.make_tensor_descriptor(...)`,
    `TensorDescriptor.from_tensor(...)`) or a name bound to it: an import alias (`TensorDescriptor as TD`),
    an assignment (`host_descriptor = TensorDescriptor.from_tensor`), a lookup for several Triton versions
    (`getattr(tl, "make_tensor_descriptor", None) or tl._experimental_make_tensor_descriptor`). A mention that
    is never called (an unused lookup, a flag named after the API) does not count (probe round 11)."""
    bound = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
        if alias.name in wanted
    }

    def refers(expr: ast.AST) -> bool:
        for n in ast.walk(expr):
            if isinstance(n, ast.Name) and (n.id in wanted or n.id in bound):
                return True
            if isinstance(n, ast.Attribute) and (
                n.attr in wanted or any(n.attr.startswith("_") and n.attr.endswith("_" + w) for w in wanted)
            ):
                return True
            if (
                isinstance(n, ast.Call)
                and isinstance(n.func, ast.Name)
                and n.func.id == "getattr"
                and any(isinstance(a, ast.Constant) and a.value in wanted for a in n.args[1:2])
            ):
                return True
        return False

    assigns = [n for n in ast.walk(tree) if isinstance(n, ast.Assign)]
    for _ in range(3):  # names bound to names bound to the API
        bound |= {t.id for a in assigns if refers(a.value) for t in a.targets if isinstance(t, ast.Name)}
    return any(isinstance(n, ast.Call) and refers(n.func) for n in ast.walk(tree))


def _api_missing(module, names) -> list[dict]:
    """Contract `calls_any = ["make_tensor_descriptor", "TensorDescriptor"]`: the exercise is about an API, so
    the file must call one of these (a plain pointer GEMM passes lesson 13's descriptor exercise on values
    alone). Fact `api-missing` with `names`."""
    wanted = [str(n) for n in names or []]
    if not wanted:
        return []
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError):
        return []
    if _calls_api(tree, set(wanted)):
        return []
    return [
        {
            "kind": "api-missing",
            "names": wanted,
            "message": "the values are right, but this exercise is about "
            + " / ".join(wanted)
            + ", and your "
            "file never calls it: write the kernel with it (the pointer version is the previous exercise)",
        }
    ]


def _allocator_missing(module) -> list[dict]:
    """A kernel that builds tensor descriptors on the device (tl.make_tensor_descriptor) needs scratch memory
    from `triton.set_allocator(...)` on a GPU; the interpreter needs none, so a file without the call passes
    there and stops at its first GPU launch."""
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return []
    import ast

    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    called = {name_of(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    if "make_tensor_descriptor" not in called or "set_allocator" in called:
        return []
    line = next(
        (
            n
            for n, text in enumerate(source.splitlines(), 1)
            if "make_tensor_descriptor(" in text.split("#")[0]
        ),
        None,
    )
    return [
        {
            "kind": "allocator-missing",
            "line": line,
            "message": f"line {line} builds a tensor descriptor on the device, and the file never calls "
            "triton.set_allocator: a GPU launch stops there (descriptors need scratch memory) — register "
            "an allocator before the launch",
        }
    ]


def _autotuners(module) -> list:
    try:
        from triton.runtime.autotuner import Autotuner
    except Exception:  # noqa: BLE001
        return []
    found = []
    for value in vars(module).values():
        while value is not None and not isinstance(value, Autotuner) and hasattr(value, "fn"):
            value = getattr(value, "fn", None)  # @triton.heuristics around @triton.autotune
        if isinstance(value, Autotuner):
            found.append(value)
    return found


def _gpu_configs(function) -> list | None:
    """Call the learner's config function as it runs on a GPU (TRITON_INTERPRET unset for the call)."""
    import os

    saved = os.environ.pop("TRITON_INTERPRET", None)
    try:
        configs = function()
        return list(configs) if isinstance(configs, (list, tuple)) else None
    except Exception:  # noqa: BLE001 - the learner's code; its own error shows elsewhere
        return None
    finally:
        if saved is not None:
            os.environ["TRITON_INTERPRET"] = saved


#: the file's GPU configs, read once per config function (one load of the learner's file, one verify): every
#: case of a verify asks, and the learner's function runs outside the interpreter's setting each time
_TILE_CONFIGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _tile_configs(module, spec: dict) -> list:
    """The triton.Config objects (with keyword dicts) the file's `configs_function` returns on a GPU."""
    function = getattr(module, spec.get("configs_function") or "", None)
    if not callable(function):
        return []
    try:
        return list(_TILE_CONFIGS[function])
    except (KeyError, TypeError):  # not asked yet, or an object no weak reference can hold
        pass
    tiles = [c for c in _gpu_configs(function) or [] if isinstance(getattr(c, "kwargs", None), dict)]
    with contextlib.suppress(TypeError):
        _TILE_CONFIGS[function] = tiles
    return list(tiles)


_TILE_AXIS = re.compile(r"(?:BLOCK|BLK|TILE|B)_?(?:SIZE_?)?([MN])", re.IGNORECASE)


def tile_names(keys) -> tuple[str, str] | None:
    """The names of a GEMM tile's two sides among a config's or launch's keyword names: BLOCK_M / BLOCK_N,
    BLOCK_SIZE_M, BM, TILE_M, BLK_M … (the first of each side), or None without both."""
    found: dict[str, str] = {}
    for key in sorted(keys, key=lambda k: (not str(k).startswith("BLOCK_"), str(k))):
        match = _TILE_AXIS.fullmatch(str(key))
        if match:
            found.setdefault(match.group(1).upper(), str(key))
    return (found["M"], found["N"]) if "M" in found and "N" in found else None


def tile_of(meta: dict) -> tuple[int, int] | None:
    """(BLOCK_M, BLOCK_N) of a launch's or config's keywords, whatever the learner named them."""
    names = tile_names(meta)
    if names is None:
        return None
    bm, bn = meta.get(names[0]), meta.get(names[1])
    if isinstance(bm, int) and isinstance(bn, int) and bm > 0 and bn > 0:
        return bm, bn
    return None


def _tile_area(config) -> int:
    tile = tile_of(config.kwargs)
    return tile[0] * tile[1] if tile else 1


#: a variant key the lab reads itself (never passed to the wrapper): `"@autotune" = "smallest"` runs that case
#: with the autotuner pinned to the file's GPU config with the smallest (or "largest") BLOCK_M x BLOCK_N tile
DIRECTIVE = "@"


def directives(kwargs: dict) -> tuple[dict, dict]:
    """(the wrapper's keywords, the lab's directives) of a case's variant."""
    return (
        {k: v for k, v in kwargs.items() if not str(k).startswith(DIRECTIVE)},
        {k[1:]: v for k, v in kwargs.items() if str(k).startswith(DIRECTIVE)},
    )


class PruneLeftNothing(RuntimeError):
    """The learner's `early_config_prune` returned no config for a launch's arguments: a GPU's autotuner stops
    there ("No valid autotuner configs after pruning"); the interpreter's one config never reached the
    prune."""

    def __init__(self, configs: int, sizes: dict, prune=None):
        self.configs, self.sizes = configs, sizes
        self.prune_name = getattr(prune, "__name__", None)
        try:
            self.prune_line: int | None = inspect.getsourcelines(prune)[1] if prune is not None else None
        except (OSError, TypeError):
            self.prune_line = None
        shown = ", ".join(f"{k}={v}" for k, v in sizes.items())
        super().__init__(
            f"No valid autotuner configs after pruning: early_config_prune kept none of the {configs} GPU "
            f"configs for {shown or 'this launch'}"
        )


class PerfModelFailed(RuntimeError):
    """The learner's `perf_model` raised when called as a GPU's autotuner calls it, once per config with
    keywords only: perf_model(**named_args, **kwargs, **config.all_kwargs())."""

    def __init__(self, model, error: BaseException):
        self.model_name = getattr(model, "__name__", None)
        try:
            self.model_line: int | None = inspect.getsourcelines(model)[1]
        except (OSError, TypeError):
            self.model_line = None
        self.error = f"{type(error).__name__}: {error}"[:200]
        super().__init__(f"perf_model {self.model_name} raised when the autotuner called it: {self.error}")


def _guard_prune(tuner, configs: list, sizes_of: list[str]) -> None:
    """Run the tuner's early_config_prune, then its perf_model (with top_k), over the file's GPU configs
    before each launch, as a GPU's autotuner does with several configs (Autotuner.prune_configs calls the
    model as perf_model(**named_args, **kwargs, **config.all_kwargs()): a model written for another
    signature raises there and here). An instance attribute over Autotuner.run; removed by the caller."""
    prune = getattr(tuner, "early_config_prune", None)
    model = getattr(tuner, "perf_model", None)
    if not callable(prune) and not callable(model):
        return

    def guarded(*args, **kwargs):
        nargs = dict(zip(getattr(tuner, "arg_names", []), args, strict=False))
        kept = list(configs)
        if callable(prune):
            kept = prune(list(configs), nargs, **kwargs)
            if not kept:
                sizes = {k: nargs[k] for k in sizes_of if isinstance(nargs.get(k), int)}
                raise PruneLeftNothing(len(configs), sizes, prune)
        top_k = getattr(tuner, "configs_top_k", 1.0)
        if isinstance(top_k, float) and top_k <= 1.0:
            top_k = max(1, int(len(kept) * top_k))
        if callable(model) and isinstance(top_k, int) and len(kept) > top_k:
            for config in kept:
                try:
                    model(**nargs, **kwargs, **config.all_kwargs())
                except Exception as e:  # noqa: BLE001 - the learner's model: said with its line
                    raise PerfModelFailed(model, e) from e
        return type(tuner).run(tuner, *args, **kwargs)  # the class's run, as hooked at launch time

    tuner.run = guarded


@contextlib.contextmanager
def pinned_autotune(exercise, module, which: str | None, timed: bool = True) -> Iterator[dict | None]:
    """On the interpreter the file hands the autotuner one small config by design, so a grid that hard-codes
    that tile (lambda meta: (cdiv(M, 32) * cdiv(N, 32),)) or a kernel wrong for other tiles passes there.
    This case pins every autotuner of the file to one of its GPU configs (the smallest or largest tile);
    yields that config's keywords, or None when there is nothing to pin (no autotuner, no GPU configs).
    Every case (pinned or not) also runs the file's early_config_prune over its GPU configs before a launch:
    with one config Triton never prunes, so a prune that leaves nothing for small M passed the interpreter."""
    spec = exercise.verify.contracts.get("autotune")
    tiles = _tile_configs(module, spec) if isinstance(spec, dict) else []
    tuners = _autotuners(module) if tiles else []
    if not tuners:
        yield None
        return
    sizes_of = [str(k) for k in (spec.get("key_all") or ["M", "N", "K"])] if isinstance(spec, dict) else []
    guarded = [t for t in tuners if "run" not in vars(t) and len(t.configs) <= 1]
    for tuner in guarded:  # several configs: Triton's own autotuner prunes them
        _guard_prune(tuner, tiles, sizes_of)
    chosen = (max if which == "largest" else min)(tiles, key=_tile_area) if which else None
    saved = (
        [(t, t.configs, dict(getattr(t, "cache", {}) or {})) for t in tuners] if chosen is not None else []
    )
    kept = {
        id(t): {
            k: vars(t)[k]
            for k in ("_do_bench", "do_bench", "early_config_prune", "perf_model")
            if k in vars(t)
        }
        for t, _, _ in saved
    }
    facts = dict(chosen.kwargs) if chosen is not None else None
    # the "largest" case also times every other GPU config once, as a GPU's autotuner compiles and runs each:
    # a config that cannot compile there (a tl.dot with BLOCK_K = 8 on float16) fails the launch on a GPU
    others = [c for c in tiles if c is not chosen] if which == "largest" else []
    try:
        for tuner, _, _ in saved:
            # the chosen config and a twin: with two configs Triton's autotuner times both before the real
            # launch, running the kernel (with its reset_to_zero, restore_value and pre_hooks) as a GPU's does
            # — a kernel that accumulates into its output without a reset shows here. One timing run each;
            # the prune and the perf model already ran over the GPU configs (_guard_prune).
            # `timed` False: a later case of a dtype and pinned tile whose first case timed them (the runner's
            # choice, verify_runner._timing_case): one config, which Triton launches without timing
            tuner.configs = [chosen, _twin(chosen), *others] if timed else [chosen]
            if facts is not None and callable(getattr(type(tuner), "_bench", None)):
                tuner._bench = _naming_bench(tuner, facts)
            tuner.early_config_prune = None
            tuner.perf_model = None
            tuner._do_bench = _count_bench(facts)
            if "do_bench" in vars(tuner):  # an older Triton keeps the benchmarker as a plain attribute
                tuner.do_bench = tuner._do_bench
            if isinstance(getattr(tuner, "cache", None), dict):
                tuner.cache.clear()
        yield facts
    finally:
        for tuner, configs, cache in saved:
            tuner.configs = configs
            vars(tuner).pop("_bench", None)
            for key, value in kept[id(tuner)].items():
                setattr(tuner, key, value)
            if isinstance(getattr(tuner, "cache", None), dict):
                tuner.cache.clear()
                tuner.cache.update(cache)
        for tuner in guarded:
            vars(tuner).pop("run", None)


def _naming_bench(tuner, facts: dict):
    """The autotuner's _bench, which times one config, keeping that config's keywords in facts["@config"]
    while it runs: a launch that fails there names the config (explain_config_error)."""

    def bench(*args, config, **meta):
        facts["@config"] = dict(getattr(config, "kwargs", {}) or {})
        result = type(tuner)._bench(tuner, *args, config=config, **meta)
        facts.pop("@config", None)
        return result

    return bench


def _config_literals(file: str | None):
    """(line, keywords) of each `triton.Config({...})` in the learner's file whose keywords are a literal."""
    if not file:
        return
    try:
        tree = ast.parse(Path(file).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Dict)):
            continue
        if name_of(node.func) != "Config":
            continue
        try:
            literal = ast.literal_eval(node.args[0])
        except (ValueError, SyntaxError, TypeError):
            continue
        if isinstance(literal, dict):
            yield node.lineno, literal


def config_line(file: str | None, kwargs: dict) -> int | None:
    """The line of the learner's `triton.Config({...})` whose literal keywords are `kwargs`, or None."""
    if not kwargs:
        return None
    return next((line for line, literal in _config_literals(file) if literal == kwargs), None)


def config_holding(file: str | None, name: str, value: int) -> dict | None:
    """The literal keywords of the learner's first `triton.Config({...})` whose `name` is `value`, or None."""
    return next((literal for _, literal in _config_literals(file) if literal.get(name) == value), None)


def configs_holding(file: str | None, name: str, value: int) -> list[tuple[int, dict]]:
    """(line, literal keywords) of every `triton.Config({...})` of the learner's file whose `name` is `value`
    (an int: True and 1.0 are not 1)."""
    return [
        (line, literal)
        for line, literal in _config_literals(file)
        if type(literal.get(name)) is int and literal.get(name) == value
    ]


def explain_config_error(pinned: dict | None, info: dict, file: str | None = None) -> None:
    """A launch that failed while the autotuner timed one of the file's other GPU configs: name that config
    (fact `config`, and `config_line`, the line of its triton.Config). A tl.dot below the GPU's minimum K
    there is a config the GPU cannot compile: its line is the config's."""
    config = (pinned or {}).get("@config")
    if not config or not isinstance(info, dict):
        return
    line = config_line(file, config)
    info["config"] = config
    if line is not None:
        info["config_line"] = line
    if info.get("cause") == "dot-too-small":
        shown = ", ".join(f"{k}={v}" for k, v in config.items())
        info["message"] = (
            f"the autotune config {{{shown}}} gives tl.dot a K "
            f"dimension below {info.get('k')}, the least an NVIDIA GPU compiles for these operands: a GPU's "
            "autotuner compiles every config and this one fails the launch — raise that config's K block to "
            f"at least {info.get('k')} (or drop the config)"
        )
        if line is not None:
            info["dot_line"], info["line"] = info.get("line"), line
    odd = {
        k: v
        for k, v in config.items()
        if isinstance(v, int) and not isinstance(v, bool) and v > 0 and v & (v - 1) and "BLOCK" in k.upper()
    }
    if "power of 2" in str(info.get("message") or "") and odd and not info.get("cause"):
        # a tl.arange (or a block shape) of this config's size: the config is what a GPU refuses
        shown = ", ".join(f"{k}={v}" for k, v in config.items())
        sizes = ", ".join(f"{k} = {v}" for k, v in odd.items())
        failed = str(info.get("exception") or info.get("message"))[:80]
        info.update(cause="config-not-pow2", odd=odd)
        info["message"] = (
            f"the autotune config {{{shown}}}"
            + (f" (line {line})" if line is not None else "")
            + f" has {sizes}, not a power of two, and Triton's block sizes must be powers of two (the "
            f"kernel's line {info.get('line')} failed: {failed}) — a "
            "GPU's autotuner compiles every config and this one fails the launch: use a power of two "
            "(64 or 128) or drop the config"
        )
        if line is not None:
            info["kernel_line"], info["line"] = info.get("line"), line


def _twin(config):
    """A second triton.Config equal to `config` (its own object: the autotuner keys its timings by config)."""
    return copy.copy(config)


def _count_bench(facts: dict | None):
    """A do_bench for the pinned case: runs the autotuner's kernel_call once and counts it in
    facts["@benched"] (the runner reports it: the judge names an output that grew with each timing run)."""

    def bench(kernel_call, quantiles=None, **_):
        from tritonlab.engine import memcheck

        with memcheck.unrecorded():  # the grid checks read the learner's own launch
            kernel_call()
        if facts is not None:
            facts["@benched"] = facts.get("@benched", 0) + 1
        return [1.0, 1.0, 1.0] if quantiles else 1.0

    return bench


# ----------------------------------------------------------------------------------------------------------
# Unwritten output, explained from the recorded launches


def explain_unwritten(
    diagnoses: list, launches: list, block, shape: tuple, known: list | None = None
) -> None:
    """Point an 'unwritten' diagnosis at its cause, read from what was really launched (facts `cause`,
    `programs`, `tiles`): no programs at all, fewer programs than tiles (floor division), or several programs
    that all wrote the first block (offsets that ignore the program id). Leaves the diagnosis alone
    otherwise."""
    diag = next((d for d in diagnoses if d.get("kind") == "unwritten"), None)
    grid_fact = next((d for d in known or [] if d.get("kind") == "grid-size"), None)
    if (
        diag is not None and grid_fact is not None
    ):  # one slot per program: the grid fact already names the cause
        diag.update(
            cause="grid-size",
            programs=grid_fact["launched"],
            tiles=grid_fact["expected"],
            **({"line": grid_fact["line"]} if grid_fact.get("line") else {}),
            message=f"{diag.get('count')} of the output's slots were never written: no program was launched "
            f"for them (the grid launched {_count(grid_fact['launched'], 'program')} for "
            f"{_count(grid_fact['expected'], 'block')})",
        )
        return
    if diag is None or len(launches) != 1 or not launches[0].get("grid"):
        return
    launch = launches[0]
    programs = _programs(launch)
    assert programs is not None  # None only for an empty grid, returned above
    grid = launch["grid"]
    sizes = [int(d) for d in shape]
    numel = math.prod(sizes)
    if programs == 0:
        diag.update(
            cause="grid-zero",
            programs=0,
            grid=grid,
            message=f"the grid launched no programs (grid {grid}): a floor division of a size smaller than "
            "the block gives 0 — use triton.cdiv(size, BLOCK)",
        )
        return
    dims = [int(d) for d in grid] + [1, 1]
    axes = launch.get("pid_axes")
    if _explain_arange_block(diag, launch, sizes):
        return
    if isinstance(axes, int) and (dims[1] > 1 or dims[2] > 1) and axes == 1:
        diag.update(
            cause="grid-axes-unread",
            grid=grid,
            message=f"the grid is {_grid_text(grid)} but the kernel reads only "
            "tl.program_id(0): the programs along the other axes repeat axis 0's work — launch a 1D grid, or "
            "read tl.program_id(1) in the kernel",
        )
        return
    # the tiles the output has along the axis the kernel reads last (2-D tiles only): an axis of one
    # program is not missing where the output needs only one tile along it (probe round 17a)
    blocks_along = _tile_blocks(launch, block, shape)
    needed = (
        -(-sizes[axes - 1] // blocks_along[axes - 1])
        if isinstance(axes, int) and blocks_along and 1 <= axes <= len(blocks_along) == len(sizes)
        else None
    )
    if (
        isinstance(axes, int)
        and axes >= 2
        and dims[axes - 1] == 1
        and programs > 0
        and (needed is None or needed > 1)
    ):
        shown = " x ".join(str(d) for d in dims[:axes])
        diag.update(
            cause="grid-axis-missing",
            grid=grid,
            axis=axes - 1,
            **({"tiles_along": needed} if needed else {}),
            message=f"the kernel reads tl.program_id({axes - 1}), but the grid is {shown}: one program "
            f"along axis {axes - 1}, so tl.program_id({axes - 1}) is always 0"
            + (f" where the output has {needed} tiles along it" if needed else "")
            + f" — launch the programs along axis {axes - 1}, or number them with tl.program_id(0)",
        )
        return
    if _explain_flat_2d(diag, launch, programs, dims, block, sizes):
        return
    blocks = _tile_blocks(launch, block, shape)
    tiles = math.prod(-(-size // b) for size, b in zip(sizes, blocks, strict=True)) if blocks else None
    if tiles and blocks and programs < tiles:
        axis, floor = _short_axis(grid, sizes, blocks, programs, launch.get("pid_axes"))
        note = " (floor division drops the last, partial block)" if floor else ""
        where = f" along axis {axis}" if axis is not None else ""
        # a grid function handed the tile in meta that still launched too few: it does not read meta's tile
        from_meta = bool(launch.get("grid_fn")) and len(blocks) == 2 and not floor
        diag.update(
            cause="grid-fewer-programs",
            programs=programs,
            tiles=tiles,
            grid=grid,
            floor=floor,
            axis=axis,
            blocks=blocks,
            from_meta=from_meta,
            message=f"the grid launched {_count(programs, 'program')} for {tiles} tiles{where}{note}: "
            "use triton.cdiv(size, BLOCK) programs along each axis"
            + (f" with the launch's own tile (meta gave {blocks[0]} x {blocks[1]})" if from_meta else ""),
        )
        return
    if (
        tiles
        and blocks
        and len(blocks) == 2
        and programs >= tiles
        and diag.get("cause") in ("columns-short", "rows-short", "tiles")
    ):
        two_axes = launch.get("pid_axes") == 2  # a 1-D grid over a flat tile id is not a swapped 2-D one
        swapped = swapped_grid_axes(dims, sizes, blocks, diag.get("count")) if two_axes else None
        if swapped is not None:  # (column tiles, row tiles) for a kernel whose axis 0 is the row tile
            line = grid_line(launch.get("file"), launch.get("kernel"))
            diag.update(
                cause="grid-axes-swapped",
                programs=programs,
                tiles=tiles,
                grid=grid,
                tile_counts=swapped,
                blocks=blocks,
                message=f"the grid is {dims[0]} x {dims[1]} but the output has {swapped[0]} row tiles and "
                f"{swapped[1]} column tiles (tiles of {blocks[0]} x {blocks[1]}): the grid's axes are "
                "swapped — tl.program_id(0) takes the row tiles, so the grid must be (triton.cdiv(rows, "
                "BLOCK_M), triton.cdiv(cols, BLOCK_N))" + (f" (line {line})" if line else ""),
            )
            if line:
                diag["line"] = line
            return
        # a program for every tile, yet tiles stay unwritten: two programs took the same tile
        diag.update(
            cause="tile-map",
            programs=programs,
            tiles=tiles,
            message=f"{_were(diag.get('count') or 0)} never written although the grid launched "
            f"{_count(programs, 'program')} for {tiles} tiles: some tiles were never reached (two programs "
            "on one tile, or tile starts that step by the wrong size) — check how the program id becomes the "
            "tile's first row and column (pid_m * BLOCK_M, pid_n * BLOCK_N)",
        )
        height = group_height_line(launches[0].get("file") if launches else None)
        column = group_column_line(launches[0].get("file") if launches else None) if height is None else None
        if column is not None:  # pid_n walks GROUP_M programs per column where the last group is shorter
            line, text, divisor, real = column
            diag.update(
                group_line=line,
                group_text=text,
                group_divisor=divisor,
                group_height=real,
                line=line,
                message=f"{_were(diag.get('count') or 0)} never written although the grid launched "
                f"{_count(programs, 'program')} for {tiles} tiles: in the grouped order some programs map to "
                f"the same tile — pid_n at line {line} ({text}) divides by {divisor}, but the last group is "
                f"short when num_pid_m is not a multiple of {divisor}: divide by the group's real height, "
                f"{real}, as pid_m does",
            )
        if height is not None:  # the grouped order's height: the usual way two programs meet on one tile
            line, text = height
            diag.update(
                group_line=line,
                group_text=text,
                line=line,
                message=f"{diag.get('count')} elements were never written although the grid launched "
                f"{_count(programs, 'program')} for {tiles} tiles: in the grouped order some programs map "
                f"to the same tile — the group height at line {line} ({text}) is not the group's real "
                "height: the last group is short when num_pid_m is not a multiple of GROUP_M, so the height "
                "is min(num_pid_m - first_pid_m, GROUP_M)",
            )
        return
    block_1d = block if isinstance(block, int) and len(shape) == 1 else None
    literal = _literal_block_start(launches[0].get("file") if launches else None) if block_1d else None
    if block_1d and programs > 1 and literal is not None and literal[1] != block_1d:
        # offsets = pid * 1024 + tl.arange(0, BLOCK_SIZE): each program starts a literal's step after the last
        line, step = literal
        diag.update(
            cause="block-start-literal",
            programs=programs,
            block=block_1d,
            step=step,
            line=line,
            message=f"{diag.get('count')} elements were never written: each program's block starts {step} "
            f"elements after the previous one (line {line}: program_id × {step}), but the launch's "
            f"BLOCK_SIZE is {block_1d} — start each block at tl.program_id(0) * BLOCK_SIZE, not at a number "
            "written out",
        )
        return
    if (
        block_1d
        and programs > 1
        and diag.get("ranges") == [[block_1d, numel - 1]]
        and diag.get("cause") != "tail-masked"  # no store landed twice: not programs sharing one block
    ):
        diag.update(
            cause="same-block",
            programs=programs,
            block=block_1d,
            message=f"all {programs} programs wrote the same block (elements 0–{block_1d - 1}): the "
            "offsets ignore the program id — start each program's block at "
            "tl.program_id(0) * BLOCK_SIZE",
        )


def file_tree(file: str | None) -> ast.Module | None:
    """The learner's file parsed, or None (no file, unreadable, not Python). Parsed once per version of the
    file (path, size, mtime): the source rules ask for it case after case. Callers only read the tree."""
    if not file:
        return None
    try:
        stat = Path(file).stat()
    except OSError:
        return None
    return _parsed(str(file), stat.st_size, stat.st_mtime_ns)


@functools.lru_cache(maxsize=16)
def _parsed(file: str, size: int, mtime_ns: int) -> ast.Module | None:
    try:
        return ast.parse(Path(file).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return None


def program_id_names(tree: ast.AST) -> set[str]:
    """Names the file assigns from an expression holding tl.program_id (pid, start_pid, ...)."""
    return {
        t.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and "program_id" in ast.unparse(n.value)
        for t in n.targets
        if isinstance(t, ast.Name)
    }


def swapped_grid_axes(dims: list[int], sizes: list[int], blocks: list[int], unwritten) -> list[int] | None:
    """[row tiles, column tiles] when a 2-D grid `dims` is those counts in swapped order (column tiles on
    axis 0) and exactly the elements a kernel taking its row tile from axis 0 would miss under it stay
    unwritten (`unwritten`: their count): rows past dims[0]·BLOCK_M and columns past dims[1]·BLOCK_N. None
    otherwise — equal counts (no way to tell), a third grid axis, a 1-D grid, or another count unwritten (a
    kernel that takes its column tile from axis 0 on purpose writes everything under such a grid). The caller
    makes sure the kernel reads tl.program_id(1)."""
    if len(sizes) != 2 or len(blocks) != 2 or len(dims) < 2 or any(int(d) != 1 for d in dims[2:]):
        return None
    if min(dims[0], dims[1]) < 2:  # a 1-D grid (n,) reads as (n, 1): no second axis to swap
        return None
    counts = [-(-size // b) for size, b in zip(sizes, blocks, strict=True)]
    if counts[0] == counts[1] or [dims[0], dims[1]] != [counts[1], counts[0]]:
        return None
    covered = min(sizes[0], dims[0] * blocks[0]) * min(sizes[1], dims[1] * blocks[1])
    missed = sizes[0] * sizes[1] - covered
    if not isinstance(unwritten, int) or isinstance(unwritten, bool) or missed <= 0 or unwritten != missed:
        return None
    return counts


def _enclosing_function(tree: ast.AST, line: int) -> ast.FunctionDef | None:
    """The innermost function definition whose lines hold `line`, or None (module level)."""
    found: ast.FunctionDef | None = None
    for f in ast.walk(tree):
        if not isinstance(f, ast.FunctionDef) or not f.lineno <= line <= (f.end_lineno or f.lineno):
            continue
        if found is None or f.lineno >= found.lineno:
            found = f
    return found


def _own_assignments(function: ast.FunctionDef, name: str) -> list[ast.stmt]:
    """The statements of `function` itself (not of a function nested in it) that assign `name`."""
    found: list[ast.stmt] = []
    todo: list[ast.AST] = list(function.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(n, ast.Name) and n.id == name for t in targets for n in ast.walk(t)):
                found.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return found


def grid_line(file: str | None, kernel: str | None) -> int | None:
    """The line where the grid of the file's one launch of `kernel` (`kernel[grid](...)`) is written: the
    grid's own line when it is written inside the brackets, else the one assignment of that name in the
    function that launches (`grid = lambda meta: ...`). None when the kernel is launched at several places or
    never, or the grid's name is assigned there more or less than once (no guess)."""
    tree = file_tree(file)
    if tree is None or not kernel:
        return None
    launches = [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript) and name_of(n.func.value) == kernel
    ]
    if len(launches) != 1:
        return None
    grid = launches[0].func.slice  # type: ignore[attr-defined]
    if not isinstance(grid, ast.Name):
        return grid.lineno
    function = _enclosing_function(tree, launches[0].lineno)
    made = _own_assignments(function, grid.id) if function is not None else []
    return made[0].lineno if len(made) == 1 else None


def returned_line(file: str | None, entry: str | None) -> int | None:
    """The line that makes the tensor the wrapper `entry` returns: the one assignment of the name every
    `return` of it gives back (`output = torch.empty_like(x.t())`), or the one `return` itself when it returns
    an expression (`return out.t()`). None when that is not one line (no guess)."""
    tree = file_tree(file)
    if tree is None or not entry:
        return None
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == entry]
    if len(functions) != 1:
        return None
    returns: list[ast.Return] = []
    todo: list[ast.AST] = list(functions[0].body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Return) and node.value is not None:
            returns.append(node)
        todo.extend(ast.iter_child_nodes(node))
    names = {r.value.id for r in returns if isinstance(r.value, ast.Name)}
    if len(returns) == 1 and not names:
        return returns[0].lineno
    if len(names) != 1 or not all(isinstance(r.value, ast.Name) for r in returns):
        return None
    made = _own_assignments(functions[0], names.pop())
    return made[0].lineno if len(made) == 1 else None


def group_height_line(file: str | None) -> tuple[int, str] | None:
    """(line, text) of a grouped tile order's height that is not min(num_pid_m - first_pid_m, GROUP_M): the
    name after `%` in the assignment of pid_m (`pid_m = first_pid_m + ((pid % num_pid_in_group) % h)`) is
    the group's height. Its assignment when that is something else than a min(...) of a difference (`h =
    GROUP_M`, `h = num_pid_m % GROUP_M or GROUP_M`), or pid_m's own line when the height is a constexpr
    written in capitals (`% GROUP_M`). A name built by a product (num_pid_in_group = GROUP_M * num_pid_n)
    is the group's size in programs, not its height. None when there is no such order or it looks right."""
    tree = file_tree(file)
    if tree is None:
        return None
    assigned: dict[str, ast.Assign] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, node)

    def a_min_of_difference(value: ast.AST) -> bool:
        return (
            isinstance(value, ast.Call)
            and name_of(value.func) in ("min", "minimum")
            and any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) for n in ast.walk(value))
        )

    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Assign)
            and any(isinstance(n, ast.Name) and n.id == "pid_m" for t in node.targets for n in ast.walk(t))
        ):
            continue
        for mod in ast.walk(node.value):
            if not (
                isinstance(mod, ast.BinOp) and isinstance(mod.op, ast.Mod) and isinstance(mod.right, ast.Name)
            ):
                continue
            height = mod.right.id
            if height.isupper() and "GROUP" in height:
                return node.lineno, ast.unparse(node)[:80]
            made = assigned.get(height)
            if made is None or a_min_of_difference(made.value):
                continue
            if any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.Mult) for n in ast.walk(made.value)):
                continue  # num_pid_in_group: programs in a group
            if "GROUP" not in ast.unparse(made.value):
                continue
            return made.lineno, ast.unparse(made)[:80]
    return None


def group_column_line(file: str | None) -> tuple[int, str, str, str] | None:
    """(line, text, divisor, height) where a grouped tile order's pid_n divides by a constexpr GROUP name
    (`pid_n = (pid % num_pid_in_group) // GROUP_M`) while pid_m takes the group's real height from a name
    assigned min(num_pid_m - first_pid_m, GROUP_M) (`% group_size_m`): the column walks GROUP_M programs per
    step, but the short last group has fewer rows, so two of its programs meet on one tile. None otherwise
    (the height is wrong too — group_height_line names that — or pid_n divides by the height)."""
    tree = file_tree(file)
    if tree is None:
        return None
    assigned: dict[str, ast.Assign] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            assigned.setdefault(node.targets[0].id, node)

    def assigns(node: ast.AST, name: str) -> bool:
        return isinstance(node, ast.Assign) and any(
            isinstance(n, ast.Name) and n.id == name for t in node.targets for n in ast.walk(t)
        )

    height = None
    for node in ast.walk(tree):
        if not assigns(node, "pid_m"):
            continue
        for mod in ast.walk(node.value):  # type: ignore[attr-defined]
            if isinstance(mod, ast.BinOp) and isinstance(mod.op, ast.Mod) and isinstance(mod.right, ast.Name):
                made = assigned.get(mod.right.id)
                if (
                    made is not None
                    and isinstance(made.value, ast.Call)
                    and name_of(made.value.func) in ("min", "minimum")
                    and any(
                        isinstance(n, ast.BinOp) and isinstance(n.op, ast.Sub) for n in ast.walk(made.value)
                    )
                    and "GROUP" in ast.unparse(made.value)
                ):
                    height = mod.right.id
    if height is None:
        return None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and assigns(node, "pid_n")):
            continue
        for div in ast.walk(node.value):  # type: ignore[attr-defined]
            if (
                isinstance(div, ast.BinOp)
                and isinstance(div.op, ast.FloorDiv)
                and isinstance(div.right, ast.Name)
                and div.right.id.isupper()
                and "GROUP" in div.right.id
                and isinstance(div.left, ast.BinOp)
                and isinstance(div.left.op, ast.Mod)  # (pid % num_pid_in_group) // ...: within the group
            ):
                return node.lineno, ast.unparse(node)[:80], div.right.id, height
    return None


def _literal_block_start(file: str | None) -> tuple[int, int] | None:
    """(line, n) of `pid * n` (or `tl.program_id(0) * n`) with n an integer literal above 1, in the learner's
    file: a block start written as a number instead of BLOCK_SIZE."""
    tree = file_tree(file)
    if tree is None:
        return None
    pids = program_id_names(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            for a, b in ((node.left, node.right), (node.right, node.left)):
                is_pid = (isinstance(a, ast.Name) and a.id in pids) or "program_id" in ast.unparse(a)
                if is_pid and isinstance(b, ast.Constant) and isinstance(b.value, int) and b.value > 1:
                    return node.lineno, int(b.value)
    return None


def _kernel_function(file: str | None, kernel: str | None) -> ast.FunctionDef | None:
    """The one top-level function of the learner's file named `kernel`, or None."""
    tree = file_tree(file)
    if tree is None or not kernel:
        return None
    found = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == kernel]
    return found[0] if len(found) == 1 else None


def stores_2d_tile(file: str | None, kernel: str | None) -> bool:
    """Whether the kernel `kernel` of the file takes several rows a program: a `tl.constexpr` parameter
    named for rows (ROWS, BLOCK_ROWS, ROWS_PER_PROGRAM), or a `tl.store` whose pointer, followed through the
    kernel's assignments, is a 2-D tile (an index broadcast with [:, None] and one with [None, :])."""
    function = _kernel_function(file, kernel)
    if function is None:
        return False
    for arg in function.args.args:
        if (
            "ROW" in arg.arg.upper()
            and arg.annotation is not None
            and "constexpr" in ast.unparse(arg.annotation)
        ):
            return True
    assigned: dict[str, list[ast.AST]] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    assigned.setdefault(target.id, []).append(node.value)
    for call in ast.walk(function):
        if not (isinstance(call, ast.Call) and name_of(call.func) == "store" and call.args):
            continue
        texts: list[str] = []
        todo: list[ast.AST] = [call.args[0]]
        seen: set[str] = set()
        while todo and len(seen) < 32:
            node = todo.pop()
            texts.append(ast.unparse(node))
            for name in {n.id for n in ast.walk(node) if isinstance(n, ast.Name)} - seen:
                seen.add(name)
                todo.extend(assigned.get(name, []))
        text = " ".join(texts).replace(" ", "")
        if "[:,None]" in text and "[None,:]" in text:
            return True
    return False


def unscaled_start(file: str | None, kernel: str | None) -> tuple[int, str, str] | None:
    """(line, text, size) of the one assignment in the kernel `kernel` that adds a tl.arange(0, size) to the
    program id itself, unscaled (`rows = tl.program_id(0) + tl.arange(0, ROWS)`): program p then takes
    indices p .. p + size - 1, its neighbours' too. None when there is not exactly one, or size is the
    literal 1."""
    function = _kernel_function(file, kernel)
    if function is None:
        return None
    pids = {
        t.id
        for n in ast.walk(function)
        if isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Call)
        and name_of(n.value.func) == "program_id"
        for t in n.targets
        if isinstance(t, ast.Name)
    }

    def is_pid(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id in pids) or (
            isinstance(node, ast.Call) and name_of(node.func) == "program_id"
        )

    def arange_size(node: ast.AST) -> str | None:
        if isinstance(node, ast.Call) and name_of(node.func) == "arange" and len(node.args) == 2:
            start, end = node.args
            if isinstance(start, ast.Constant) and start.value == 0:
                return ast.unparse(end)
        return None

    found = []
    for node in ast.walk(function):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.BinOp)):
            continue
        value = node.value
        if not isinstance(value.op, ast.Add):
            continue
        for a, b in ((value.left, value.right), (value.right, value.left)):
            size = arange_size(b)
            if is_pid(a) and size is not None and size != "1":
                found.append((node.lineno, ast.unparse(node)[:80], size))
    return found[0] if len(found) == 1 else None


def arange_block_starts(file: str | None, kernel: str | None) -> list[dict]:
    """The kernel's index assignments whose start steps by one block and whose lanes come from another:
    `cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_M)`, the start `<anything> * STEP` written in the sum or in
    the one assignment of a name the sum adds (`start_n = pid_n * BLOCK_N`), the lanes `tl.arange(0, LANES)`,
    STEP and LANES two different names. Each as {line, text, name, steps (the product's names: the pid's
    among them), lanes} (names, not values)."""
    function = _kernel_function(file, kernel)
    if function is None:
        return []

    def lanes_of(node: ast.AST) -> str | None:
        if isinstance(node, ast.Call) and name_of(node.func) == "arange" and len(node.args) == 2:
            start, end = node.args
            if isinstance(start, ast.Constant) and start.value == 0 and isinstance(end, ast.Name):
                return end.id
        return None

    def steps_of(node: ast.AST, follow: bool = True) -> list[str]:
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            return [side.id for side in (node.right, node.left) if isinstance(side, ast.Name)]
        if follow and isinstance(node, ast.Name):
            made = _own_assignments(function, node.id)
            if len(made) == 1 and isinstance(made[0], ast.Assign):
                return steps_of(made[0].value, follow=False)
        return []

    found = []
    for node in ast.walk(function):
        if not (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.BinOp)
            and isinstance(node.value.op, ast.Add)
        ):
            continue
        for a, b in ((node.value.left, node.value.right), (node.value.right, node.value.left)):
            lanes, steps = lanes_of(b), steps_of(a)
            if lanes and steps and lanes not in steps:
                found.append(
                    {
                        "line": node.lineno,
                        "text": " ".join(ast.unparse(node).split())[:100],
                        "name": node.targets[0].id,
                        "steps": steps,
                        "lanes": lanes,
                    }
                )
                break
    return found


def _gap_runs(size: int, step: int, lanes: int) -> list[list[int]]:
    """The index runs [first, last] of an axis of `size` that blocks starting every `step` with `lanes`
    lanes (lanes < step) never reach."""
    return [
        [start + lanes, min(start + step, size) - 1] for start in range(0, size, step) if start + lanes < size
    ]


def _grid_sized_by_lanes(grid, axis: int, size: int, step: int, lanes: int) -> bool:
    """The launch counts the programs of this axis (the grid's axis of the same number) by the lanes' block,
    cdiv(size, LANES), and not by the step's: then the start's step is the slip (`rows = pid_m * BLOCK_N +
    tl.arange(0, BLOCK_M)` under a grid of cdiv(M, BLOCK_M)), not the arange, and `arange-block` would send
    the learner the wrong way."""
    if not isinstance(grid, (list, tuple)) or len(grid) <= axis or not isinstance(grid[axis], int):
        return False
    by_lanes, by_step = -(-size // lanes), -(-size // step)
    return by_lanes != by_step and grid[axis] == by_lanes


def _explain_arange_block(diag: dict, launch: dict, sizes: list[int]) -> bool:
    """Index offsets whose start steps by one block size but whose tl.arange has another, smaller one's lanes
    (`cols = pid_n * BLOCK_N + tl.arange(0, BLOCK_M)` at BLOCK_M < BLOCK_N): each program writes only the
    first LANES of its STEP indices. Said (cause `arange-block`) only when the unwritten elements are exactly
    those gaps — along one axis of a 2-D output, every index of the other axis; or of a 1-D output — read
    from the launch's own block values."""
    meta = launch.get("meta") or {}
    for found in arange_block_starts(launch.get("file"), launch.get("kernel")):
        step_name = next((n for n in found["steps"] if isinstance(meta.get(n), int)), None)
        step, lanes = meta.get(step_name or ""), meta.get(found["lanes"])
        if not (isinstance(step, int) and isinstance(lanes, int) and 0 < lanes < step):
            continue
        axis = None
        if len(sizes) == 1:
            gaps = _gap_runs(sizes[0], step, lanes)
            got = diag.get("ranges") or []
            if gaps and got and got == gaps[: len(got)] and diag.get("runs", len(got)) == len(gaps):
                axis = 0
        elif len(sizes) == 2 and diag.get("rows") is not None and diag.get("cols") is not None:
            for a, key, other in ((0, "rows", "cols"), (1, "cols", "rows")):
                gaps = _gap_runs(sizes[a], step, lanes)
                whole = [[0, sizes[1 - a] - 1]]
                got = diag.get(key) or []
                total = diag.get(f"{key}_total", len(got))  # the runs before the report cut them
                if (
                    gaps
                    and got
                    and got == gaps[: len(got)]
                    and total == len(gaps)
                    and diag.get(other) == whole
                ):
                    axis = a
                    break
        if axis is None or _grid_sized_by_lanes(launch.get("grid"), axis, sizes[axis], step, lanes):
            continue
        what = "columns" if len(sizes) == 2 and axis == 1 else "rows" if len(sizes) == 2 else "elements"
        diag.update(
            cause="arange-block",
            line=found["line"],
            code=found["text"],
            index=found["name"],
            step_name=step_name,
            step=step,
            lanes_name=found["lanes"],
            lanes=lanes,
            axis=axis if len(sizes) == 2 else None,
            message=f"{diag.get('count')} elements were never written: each program wrote only the first "
            f"{lanes} of its {step} {what} — {found['name']} (line {found['line']}: {found['text']}) starts "
            f"every {step_name} = {step} but takes tl.arange(0, {found['lanes']}), {lanes} lanes: take "
            f"the lanes from the block it steps by, tl.arange(0, {step_name})",
        )
        return True
    return False


def check_let_through(file: str | None, entry: str | None, tensors: dict) -> dict | None:
    """A reject case's input that reached the kernel past a check of the wrapper `entry` whose `and`/`or`
    is the wrong one: an `if <test>: raise ...` above the launch whose test is False for this input, and
    True once one of its `and`/`or` is the other (`not (x.is_contiguous() or y.is_contiguous())` lets a
    strided y through beside a contiguous x). The test is worked out from the case's input facts
    (`inputs.facts`: shape, dtype, device, strides when not contiguous) for the parts it can tell —
    `t.is_contiguous()`, `t.shape`/`t.dtype`/`t.device` compared with == or != — with the wrapper's
    parameters bound to the inputs (by name, else by position) and not reassigned above the check; any
    other part leaves the check alone. {line, check, fixed, op (the one written), parts: [{text, value}]}, or
    None."""
    tree = file_tree(file)
    if tree is None or not entry or not tensors:
        return None
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == entry]
    if len(functions) != 1:
        return None
    function = functions[0]
    names = list(tensors)
    params = [a.arg for a in function.args.args]
    bound = {p: (p if p in tensors else names[i] if i < len(names) else None) for i, p in enumerate(params)}
    launches = [
        n.lineno
        for n in ast.walk(function)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Subscript)  # kernel[grid](...)
    ]
    stop = min(launches) if launches else None
    for node in ast.walk(function):
        if not (isinstance(node, ast.If) and any(isinstance(b, ast.Raise) for b in node.body)):
            continue
        if stop is not None and node.lineno > stop:
            continue
        reassigned = {p for p in bound if any(a.lineno < node.lineno for a in _own_assignments(function, p))}
        facts = {
            p: tensors[t]
            for p, t in bound.items()
            if t is not None and p not in reassigned and isinstance(tensors.get(t), dict)
        }
        if _check_value(node.test, facts) is not False:
            continue
        count = sum(isinstance(n, ast.BoolOp) for n in ast.walk(node.test))
        for index in range(count):
            swapped = copy.deepcopy(node.test)
            op = [n for n in ast.walk(swapped) if isinstance(n, ast.BoolOp)][index]
            original = [n for n in ast.walk(node.test) if isinstance(n, ast.BoolOp)][index]
            op.op = ast.And() if isinstance(op.op, ast.Or) else ast.Or()
            if _check_value(swapped, facts) is not True:
                continue
            return {
                "line": node.lineno,
                "check": " ".join(ast.unparse(node.test).split())[:160],
                "fixed": " ".join(ast.unparse(swapped).split())[:160],
                "op": "or" if isinstance(original.op, ast.Or) else "and",
                "parts": [
                    {"text": " ".join(ast.unparse(v).split())[:80], "value": _check_value(v, facts)}
                    for v in original.values
                ],
            }
    return None


def _check_value(node: ast.AST, tensors: dict) -> bool | None:
    """A wrapper check's truth for tensors known only by their facts (`check_let_through`); None where a part
    of it cannot be told from them."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _check_value(node.operand, tensors)
        return None if inner is None else not inner
    if isinstance(node, ast.BoolOp):
        values = [_check_value(v, tensors) for v in node.values]
        if any(v is None for v in values):
            return None
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if (
        isinstance(node, ast.Call)
        and not node.args
        and not node.keywords
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "is_contiguous"
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id in tensors
    ):
        return "strides" not in tensors[node.func.value.id]
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], (ast.Eq, ast.NotEq)):
        sides = [node.left, node.comparators[0]]
        if not all(
            isinstance(n, ast.Attribute)
            and n.attr in ("shape", "dtype", "device")
            and isinstance(n.value, ast.Name)
            and n.value.id in tensors
            for n in sides
        ):
            return None
        a, b = (tensors[n.value.id].get(n.attr) for n in sides)  # type: ignore[attr-defined]
        if a is None or b is None or sides[0].attr != sides[1].attr:  # type: ignore[attr-defined]
            return None
        if sides[0].attr == "device" and a == b:  # type: ignore[attr-defined]
            return None  # the facts keep the device's type: cuda:0 and cuda:1 read alike
        same = a == b
        return same if isinstance(node.ops[0], ast.Eq) else not same
    return None


def _explain_flat_2d(diag: dict, launch: dict, programs: int, dims: list, block, sizes: list) -> bool:
    """A 2D output written through a flat 1D launch (offsets pid * BLOCK_SIZE + arange over numel, no 2D tile
    in meta) whose flat tail [start, numel) stayed unwritten. The 2D reading of that tail (a row or a corner)
    points at the grid's row axis or the tile offsets; the launch says which it is: `programs` × BLOCK_SIZE
    ending exactly at `start` is a grid short of triton.cdiv(numel, BLOCK_SIZE) (grid-fewer-programs); a grid
    of exactly that many programs that still stopped is the store's mask (mask-short). A grid of one program a
    row (programs == rows) is left alone: there BLOCK_SIZE is a row's, not the flat block."""
    if len(sizes) != 2 or not isinstance(block, int) or block <= 0 or dims[1] > 1 or dims[2] > 1:
        return False
    if _tile_blocks(launch, None, tuple(sizes)) is not None:  # a 2D tile (BLOCK_M x BLOCK_N) was launched
        return False
    if stores_2d_tile(launch.get("file"), launch.get("kernel")):
        return False  # ROWS rows per program, BLOCK_SIZE columns: not a flat block over numel (probe 16b)
    if diag.get("cause") not in ("tiles", "rows-short", "columns-short", "tail-2d"):
        return False  # a flat reading already named the grid (one program, floor division): keep it
    numel = sizes[0] * sizes[1]
    ranges = diag.get("ranges") or []
    if (
        diag.get("runs", len(ranges)) != 1
        or len(ranges) != 1
        or ranges[0][1] != numel - 1
        or ranges[0][0] <= 0
    ):
        return False
    start, blocks = int(ranges[0][0]), -(-numel // block)
    if programs == sizes[0]:
        return False
    if programs * block == start and programs < blocks:
        floor = programs == numel // block and numel % block != 0
        diag.update(
            cause="grid-fewer-programs",
            programs=programs,
            tiles=blocks,
            grid=launch["grid"],
            floor=floor,
            axis=None,
            blocks=[block],
            from_meta=False,
            start=start,
            message=f"the grid launched {_count(programs, 'program')} for {_count(blocks, 'block')}"
            + (" (floor division drops the last, partial block)" if floor else "")
            + ": launch triton.cdiv(size, BLOCK) programs",
        )
        return True
    if programs == blocks:
        row = sizes[1]
        diag.update(
            cause="mask-short",
            programs=programs,
            block=block,
            start=start,
            row_length=row,
            message=f"elements {start}–{numel - 1} were never written although the grid launched "
            f"{_count(programs, 'program')} ({programs} × BLOCK_SIZE {block} ≥ {numel}): the store's mask "
            f"switched off everything past the first {_count(start, 'element')}"
            + (" (the length of one row)" if start == row else "")
            + " — check what the mask compares against: the flat offsets must stay below the number of "
            "elements (x.numel())",
        )
        return True
    return False


def _grid_text(grid) -> str:
    """(1, 2, 1) -> '1 x 2': the grid's axes up to the last one that has more than one program."""
    dims = [int(d) for d in grid]
    while len(dims) > 1 and dims[-1] == 1:
        dims.pop()
    return " x ".join(str(d) for d in dims)


def _were(n: int) -> str:
    """'1 element was' / '3 elements were'."""
    return f"{n} element was" if n == 1 else f"{n} elements were"


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _tile_blocks(launch: dict, block, shape: tuple) -> list[int] | None:
    """The block size along each axis of `shape`: 1D, the BLOCK_SIZE; 2D, the launch's BLOCK_M x BLOCK_N."""
    if len(shape) == 1 and isinstance(block, int) and block > 0:
        return [block]
    if len(shape) == 2:
        tile = tile_of(launch.get("meta") or {})
        if tile is not None:
            return list(tile)
    return None


def _short_axis(
    grid, sizes: list[int], blocks: list[int], programs: int, pid_axes: int | None = None
) -> tuple[int | None, bool]:
    """(the one grid axis with too few programs, or None; whether floor division explains the shortfall).
    A grid laid out like the tiles (one grid axis per tile axis) is compared axis by axis: a missing axis
    is not a floor division. A flat grid over 2D tiles is compared with the product of floor divisions."""
    per_axis = [-(-size // b) for size, b in zip(sizes, blocks, strict=True)]
    floors = [size // b for size, b in zip(sizes, blocks, strict=True)]
    if len(sizes) == 1:
        return None, programs == floors[0] and sizes[0] % blocks[0] != 0
    dims = [int(d) for d in grid] + [1, 1]
    if dims[1] > 1:  # laid out like the tiles: compare axis by axis
        short = [a for a in (0, 1) if dims[a] < per_axis[a]]
        floor = bool(short) and all(dims[a] == floors[a] and sizes[a] % blocks[a] for a in short)
        return (short[0] if len(short) == 1 else None), floor
    if dims[0] == per_axis[0] and per_axis[1] > 1 and pid_axes != 1:  # axis 0 right, axis 1 never given
        return 1, False
    if programs == floors[0] * floors[1]:  # a flat grid of floor-divided tile counts
        return None, True
    return None, False


# ----------------------------------------------------------------------------------------------------------
# Shape mismatches, explained with the two shapes and the fix


_POINTERS_GREW = re.compile(r"Expected pointer argument to have shape (\[.*?\]) but got (\[.*\])")


_DESC_SHAPE = re.compile(r"expected value shape \[([^\]]*)\], got \[(.*)\]")


def _shape_numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"(\d+)", text)]


def _row_vector_line(file: str | None) -> tuple[int, str] | None:
    """(line, name) of the first binary operation that uses a per-row vector (a name assigned from a
    reduction with axis=1) bare, not as v[:, None]: there it is broadcast as a row."""
    tree = file_tree(file)
    if tree is None:
        return None
    vectors = {
        t.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign)
        and isinstance(n.value, ast.Call)
        and any(
            k.arg == "axis" and isinstance(k.value, ast.Constant) and k.value.value == 1
            for k in n.value.keywords
        )
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp):
            for side in (node.left, node.right):
                if isinstance(side, ast.Name) and side.id in vectors:
                    found.append((node.lineno, side.id))
    return min(found) if found else None


def explain_descriptor_shape(info: dict, file: str | None = None) -> bool:
    """Triton: "expected value shape ['32', '32'], got ['constexpr[32]', 'constexpr[64]']" at
    `desc.store(...)`: the tile stored through a tensor descriptor is not the descriptor's block_shape. Names
    the descriptor, its block_shape as written and that line (cause `descriptor-block-shape`; facts
    `descriptor`, `block_shape`, `block`, `tile`, `descriptor_line`)."""
    found = _DESC_SHAPE.search(str(info.get("message", "")))
    line = info.get("line")
    if not found or not file or not isinstance(line, int):
        return False
    try:
        source = Path(file).read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (OSError, SyntaxError, ValueError):
        return False
    lines = source.splitlines()
    store = re.search(r"(\w+)\.store\(", lines[line - 1]) if 0 < line <= len(lines) else None
    if store is None:
        return False
    name = store.group(1)
    made, written = None, None
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)):
            continue
        if not any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            continue
        call = node.value
        shape = next((k.value for k in call.keywords if k.arg == "block_shape"), None)
        if shape is None and len(call.args) >= 2 and ast.unparse(call.func).endswith("from_tensor"):
            shape = call.args[1]
        if shape is None and len(call.args) >= 4:
            shape = call.args[3]
        if shape is not None:
            made, written = node.lineno, ast.get_source_segment(source, shape)
            break
    block, tile = _shape_numbers(found.group(1)), _shape_numbers(found.group(2))
    info.update(cause="descriptor-block-shape", descriptor=name, block=block, tile=tile)
    if made is not None:
        info.update(descriptor_line=made, block_shape=(written or "")[:80])
    shown = f"block_shape {written} (line {made}), that is {block}" if made else f"block shape {block}"
    info["message"] = (
        f"the tile stored through {name} has shape {tile}, but {name} was made with {shown}: a tensor "
        "descriptor loads and stores tiles of its own block shape — make its block_shape the stored tile's "
        "(for C, [BLOCK_M, BLOCK_N])"
    )
    return True


def explain_shape_error(exc: BaseException, info: dict, file: str | None = None) -> None:
    """Triton says "Cannot make_shape_compatible: incompatible dimensions at index 0: 128 and 16". The two
    whole shapes are still in the frame that raised it: name them, say which one is the pointer block, and
    when one is the other reversed, name the fix (tl.trans). Adds facts `cause`, `value_shape`,
    `pointer_shape`/`shapes`."""
    if explain_descriptor_shape(info, file):
        return
    grown = _POINTERS_GREW.search(str(info.get("message", "")))
    if grown:
        # Triton 3.9: the value (or the mask) broadcast the store's pointers up to a bigger block
        full, pointer = (tuple(int(d) for d in re.findall(r"\d+", g)) for g in grown.groups())
        row = len(full) == 2 and len(pointer) == 2 and full[1] == pointer[0] and pointer[1] != full[1]
        fix = (
            f" — a per-row vector (length {pointer[0]}) was broadcast as a row ([None, :]) against the "
            "[rows, columns] tile: broadcast per-row values as a column, v[:, None]"
            if row
            else " — build the value (and the mask) with the pointers' shape"
        )
        info.update(
            cause="shape-mismatch",
            value_shape=list(full),
            pointer_shape=list(pointer),
            grown=True,
            row_as_row=row,
            message=f"the stored value broadcasts the {list(pointer)} pointers up to {list(full)}: a store "
            f"cannot widen its pointers{fix}",
        )
        if row:  # the line that broadcast the per-row vector, where the fix belongs (the store only raised)
            found = _row_vector_line(file)
            if found is not None:
                info.update(store_line=info.get("line"), line=found[0], vector=found[1])
                info["message"] = str(info["message"]).replace(
                    "against the [rows, columns] tile",
                    f"against the [rows, columns] tile (line {found[0]}: {found[1]})",
                )
        return
    if "make_shape_compatible" not in str(info.get("message", "")):
        return
    found = _broadcast_frame(exc)
    if found is None:
        return
    (left, left_ptr, left_bool), (right, right_ptr, right_bool) = found
    if left_ptr != right_ptr:
        pointer, value = (left, right) if left_ptr else (right, left)
        access = _access_of(file, info.get("line"))
        verb = "stored through" if access == "store" else "combined with"
        flipped = value == pointer[::-1] and len(value) == 2
        if access and (right_bool if left_ptr else left_bool):
            # a load's or store's mask is broadcast against the pointers too: a boolean block is the mask
            fix = (
                " — build the mask in the pointers' order (swap [:, None] and [None, :] in it)"
                if flipped
                else " — build the mask with the pointers' shape"
            )
            info.update(
                cause="shape-mismatch",
                operand="mask",
                access=access,
                value_shape=value,
                pointer_shape=pointer,
                message=f"a {value} mask for {pointer} pointers in a {access}: the shapes must match{fix}",
            )
            return
        fix = (
            " — transpose the value with tl.trans(...)"
            if flipped
            else " — build the pointer block with the value's shape (or reshape the value)"
        )
        # the value is a transpose already (tl.trans(tile) stored through pointers built transposed too):
        # another tl.trans would undo it; one of the two transposes has to go
        transposed = _stored_transpose(file, info.get("line")) if flipped and access == "store" else None
        if transposed:
            fix = (
                f" — the value already is {transposed} and the pointers are built transposed too: drop the "
                f"tl.trans, or build the pointers as {value} (swap [:, None] and [None, :] in them) — one or "
                "the other, not both"
            )
            info["transposed"] = transposed
        info.update(
            cause="shape-mismatch",
            value_shape=value,
            pointer_shape=pointer,
            message=f"a {value} value {verb} {pointer} pointers: the shapes must match{fix}",
        )
    else:
        fix = " — one of them needs tl.trans(...)" if left == right[::-1] and len(left) == 2 else ""
        info.update(
            cause="shape-mismatch",
            shapes=[left, right],
            message=f"blocks of shapes {left} and {right} cannot be combined: each axis must match or be 1 "
            f"(broadcast){fix}",
        )


def _broadcast_frame(exc: BaseException):
    seen: set[int] = set()
    pending: list[BaseException | None] = [exc]
    while pending:
        error = pending.pop(0)
        if error is None or id(error) in seen:
            continue
        seen.add(id(error))
        tb = error.__traceback__
        while tb is not None:
            frame = tb.tb_frame
            if frame.f_code.co_name == "broadcast_impl_value":
                names = frame.f_locals
                try:
                    sides = []
                    for side in ("lhs", "rhs"):
                        shape = [int(getattr(d, "value", d)) for d in names[f"{side}_shape"]]
                        scalar = names[f"{side}_ty"].scalar
                        sides.append((shape, bool(scalar.is_ptr()), bool(scalar.is_int1())))
                    return tuple(sides)
                except Exception:  # noqa: BLE001 - another Triton version: keep Triton's own words
                    return None
            tb = tb.tb_next
        pending += [error.__cause__, error.__context__]
    return None


def _stored_transpose(file: str | None, line: int | None) -> str | None:
    """The learner's text for the stored value when it already is a transpose: `tl.trans(tile)`, `tile.T`,
    `tl.permute(tile, (1, 0))` in the tl.store on `line`, or a name assigned one of those above it (then
    `t = tl.trans(tile)`). None otherwise."""
    import ast

    from tritonlab.engine.memcheck.report import parsed_source

    found = parsed_source(file)
    if found is None or not line:
        return None
    source, tree = found
    store = next(
        (
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Call)
            and isinstance(n.func, ast.Attribute)
            and n.func.attr == "store"
            and n.lineno <= line <= (n.end_lineno or n.lineno)
        ),
        None,
    )
    if store is None:
        return None
    value = (
        store.args[1]
        if len(store.args) > 1
        else next((k.value for k in store.keywords if k.arg == "value"), None)
    )

    def is_transpose(node: ast.AST | None) -> bool:
        if isinstance(node, ast.Attribute) and node.attr == "T":
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return node.func.attr in ("trans", "permute")
        return False

    if value is not None and is_transpose(value):
        return ast.get_source_segment(source, value)
    if isinstance(value, ast.Name):
        assigns = [
            n
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign)
            and n.lineno < store.lineno
            and any(isinstance(t, ast.Name) and t.id == value.id for t in n.targets)
        ]
        last = max(assigns, key=lambda n: n.lineno, default=None)
        if last is not None and is_transpose(last.value):
            return f"{value.id} = {ast.get_source_segment(source, last.value)}"
    return None


def _access_of(file: str | None, line: int | None) -> str | None:
    """The access ("store" or "load") when the learner's failing line is a tl.store / tl.load (the calls that
    pair a value or a mask with pointers), else None."""
    import linecache

    text = linecache.getline(file, line) if file and line else ""
    if "store" in text:
        return "store"
    return "load" if "load" in text else None


def numerics_first(cases: list, errored: bool) -> None:
    """While any case computes wrong values (or the run stopped on an error), a byte-count verdict would lead
    the learner to the performance bug first: hold the perf facts back as notes until the values are right."""
    wrong = errored or any(d.get("kind") != "perf-bytes" for c in cases for d in c.get("diagnoses", []))
    if not wrong:
        return
    for case in cases:
        perf = [d for d in case.get("diagnoses", []) if d.get("kind") == "perf-bytes"]
        if not perf:
            continue
        case["diagnoses"] = [d for d in case["diagnoses"] if d.get("kind") != "perf-bytes"]
        case.setdefault("notes", []).extend(dict(d, deferred=True) for d in perf)
        case["passed"] = not case["diagnoses"] and not case.get("error")


# ----------------------------------------------------------------------------------------------------------
# Exceptions the learner raised themselves


def is_real_interrupt(exc: BaseException) -> bool:
    """True for a KeyboardInterrupt that came from a signal (the client's timeout escalation sends SIGINT: let
    it through), False for `raise KeyboardInterrupt` / `raise BaseException(...)` in the learner's code, which
    verify reports as the learner's error with its line instead of letting it kill the worker ("exit code 1",
    no line)."""
    if not isinstance(exc, KeyboardInterrupt):
        return False
    import linecache

    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return True
    text = linecache.getline(tb.tb_frame.f_code.co_filename, tb.tb_lineno).strip()
    return not text.startswith("raise")


# ---- contract `loop = [param, block]`: does the block cover the whole streamed dimension? ------------------

#: below this many elements of the loop's dimension a single block is a sane choice (a short row)
LOOP_ONCE_MIN = 1024


def loop_block(meta: dict, name: str) -> tuple[str, int] | None:
    """(name, value) of the contract's streaming block in one launch's tile sizes: the block called `name`, or
    where the kernel calls it otherwise (BLOCK_KV for BLOCK_N) its widest BLOCK_* size — a tile that covers
    the whole dimension under another name still loops once (probe round 12)."""
    value = meta.get(name)
    if isinstance(value, int) and not isinstance(value, bool):
        return name, value
    sized = [
        (k, v)
        for k, v in meta.items()
        if str(k).startswith("BLOCK") and isinstance(v, int) and not isinstance(v, bool)
    ]
    return max(sized, key=lambda kv: kv[1]) if sized else None


def widest_loop_launch(
    launches: list, block: str, learner_file: str, same_file
) -> tuple[int, str, Any] | None:
    """(block value, block name, kernel) of the widest of the learner's launches (a small first kernel, a
    warm-up or a max pass, must not hide the main one), from launch records {file, kernel, meta}."""
    blocks = [
        (named[1], named[0], launch.get("kernel"))
        for launch in launches or []
        if isinstance(launch, dict) and same_file(launch.get("file"), learner_file)
        for named in [loop_block(launch.get("meta") or {}, block)]
        if named is not None
    ]
    return max(blocks, key=lambda b: b[0]) if blocks else None


def loops_once(value, block_value) -> bool:
    """One block of `block_value` covers all `value` elements of a dimension long enough to stream."""
    return (
        isinstance(value, int)
        and isinstance(block_value, int)
        and value >= LOOP_ONCE_MIN
        and block_value > 0
        and -(-value // block_value) <= 1
    )
