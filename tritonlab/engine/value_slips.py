"""Wrong values that equal the reference under one slip, measured, and the line of the learner's file that
makes it (probe round 17c, findings 4 and 6). Each check runs only on a mismatch that nothing more specific
explained (no cause, or `all-wrong`), fires only when every element of the output matches the changed
reference within the case's own tolerance, and then looks for the line in the learner's AST; a line that
cannot be told apart is left out, never guessed.

- `grad-times-input` (a gradient of a verify plan): every element equals the right value times an input,
  element by element (an input of the gradient's shape) or per column (a 1-D input along its last axis) —
  `dw_acc += g * x_hat` where g = dy · w: each term summed into grad_w carries w. The line is the one
  accumulation (`+=`, `acc = acc + …`, `tl.atomic_add`) of a @triton.jit function whose added term depends on
  a load through the input's pointer.
- `sigmoid-sign` (a forward output, a reference with sigmoid/silu): the output equals the reference with
  sigmoid(t) replaced by sigmoid(-t) — `1 / (1 + tl.exp(a))`, the exponent's sign flipped. The line is the one
  sigmoid-shaped expression (`… / (1 + exp(t))`, `tl.sigmoid(-t)`) of the file's @triton.jit functions that is
  flipped (or the only hand-written one there is).

The English `message` is the engine's; the sentences shown are `present/diagnoses.py`'s, from the facts.
"""

from __future__ import annotations

import ast
import functools
import types
from typing import Any

import torch

from tritonlab.engine import contracts, exercise_env
from tritonlab.engine.learner import name_of
from tritonlab.engine.refit import _unexplained, head

# --- shared AST helpers -------------------------------------------------------------------------------------


def _jit_functions(tree: ast.AST) -> list[ast.FunctionDef]:
    return [
        n
        for n in ast.walk(tree)
        if isinstance(n, ast.FunctionDef) and any("jit" in ast.unparse(d) for d in n.decorator_list)
    ]


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _carried(function: ast.AST, seed: str) -> set[str]:
    """`seed` and every name `function` assigns from a value that mentions a name already found, to a fixed
    point: the pointer, the values loaded through it, and everything computed from them."""
    found = {seed}
    changed = True
    while changed:
        changed = False
        for node in ast.walk(function):
            if isinstance(node, ast.Assign):
                targets, value = list(node.targets), node.value
            elif isinstance(node, (ast.AugAssign, ast.AnnAssign)) and node.value is not None:
                targets, value = [node.target], node.value
            else:
                continue
            if _names(value) & found:
                new = {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)} - found
                if new:
                    found |= new
                    changed = True
    return found


def _text(node: ast.AST) -> str:
    return ast.unparse(node)[:80]


#: elements where the changed reference and the right one differ beyond the tolerance that a case needs for
#: its own claim; a case with fewer (a 1-element case in bf16 can match by chance) only `fits`, and takes the
#: cause from a case of the same verify that claimed it (`carry`)
STRONG = 4
#: the output must be this many times closer (summed absolute error) to the changed reference than to the
#: right one: a loose 16-bit tolerance alone does not tell a slip from a near one
CLOSER = 10.0


def _evidence(got: torch.Tensor, alt: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float) -> int:
    """How many elements tell the changed reference `alt` apart from `expected` (beyond the tolerance), when
    `got` equals `alt` within the tolerance everywhere and is `CLOSER` times closer to it than to `expected`;
    0 when it does not."""
    g = got.detach().double()
    a, e = alt.detach().double().to(g.device), expected.detach().double().to(g.device)
    if g.shape != a.shape or a.shape != e.shape or not bool(torch.isfinite(a).all()):
        return 0
    if not bool(((g - a).abs() <= atol + rtol * a.abs()).all()):
        return 0
    if float((g - a).abs().sum()) * CLOSER > float((g - e).abs().sum()):
        return 0
    return int((~((a - e).abs() <= atol + rtol * e.abs())).sum())


def _claim(diag: dict, cause: str, evidence: int, facts: dict) -> bool:
    """Name `cause` on `diag` when `evidence` is `STRONG`; with less, leave `fits` for `carry`. True when
    named."""
    if evidence >= STRONG:
        diag.update(facts, cause=cause)
        return True
    if evidence > 0:
        diag["fits"] = {**facts, "cause": cause}
    return False


# --- grad-times-input ---------------------------------------------------------------------------------------


def _stem(param: str) -> str:
    low = param.lower()
    for suffix in ("_ptrs", "_ptr", "ptr", "_p"):
        if low.endswith(suffix) and len(low) > len(suffix):
            return low[: -len(suffix)]
    return low


def _pointer_for(function: ast.FunctionDef, name: str) -> str | None:
    """The parameter of `function` that carries the input `name`: `w_ptr` or `w` for input w, `weight_ptr` for
    a one-letter input's word (w → weight); None when none or several do."""
    want = name.lower()
    params = [a.arg for a in function.args.args]
    hits = [p for p in params if _stem(p) == want]
    if not hits and len(want) == 1:
        hits = [p for p in params if _stem(p).isalpha() and _stem(p).startswith(want)]
    return hits[0] if len(hits) == 1 else None


def _is_reduction(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and name_of(node.func) in ("sum", "max", "min")


def accumulation_carrying(path: str | None, input_name: str) -> dict | None:
    """The one accumulation of the file's @triton.jit functions whose added term depends on a load through the
    pointer of input `input_name`: `acc += term` or `acc = acc + term` inside a loop, or `tl.atomic_add(ptr,
    term)`; without any, `acc = tl.sum(term, axis=0)` (a column reduction over rows). An accumulation whose
    term is itself a reduction (a row's scalar sum) counts only where nothing else does. {line, term, target,
    via, via_line} (`via`: the name in the term through which the input arrives, when it is not the loaded
    value itself), or None when there is none or more than one."""
    tree = contracts.file_tree(path)
    if tree is None:
        return None
    found: list[dict] = []
    sums: list[dict] = []
    for function in _jit_functions(tree):
        pointer = _pointer_for(function, input_name)
        if pointer is None:
            continue
        carried = _carried(function, pointer)
        loops = [n for n in ast.walk(function) if isinstance(n, (ast.For, ast.While))]
        in_loop = {id(n) for loop in loops for n in ast.walk(loop)}
        for node in ast.walk(function):
            term: ast.AST | None = None
            target = ""
            if (
                isinstance(node, ast.AugAssign)
                and isinstance(node.op, ast.Add)
                and id(node) in in_loop
                and isinstance(node.target, (ast.Name, ast.Subscript))
            ):
                term, target = node.value, _text(node.target)
            elif (
                isinstance(node, ast.Assign)
                and id(node) in in_loop
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.BinOp)
                and isinstance(node.value.op, ast.Add)
            ):
                name = node.targets[0].id
                for own, other in ((node.value.left, node.value.right), (node.value.right, node.value.left)):
                    if isinstance(own, ast.Name) and own.id == name and name not in _names(other):
                        term, target = other, name
                        break
            elif isinstance(node, ast.Call) and name_of(node.func) == "atomic_add":
                value = node.args[1] if len(node.args) > 1 else None
                value = value or next((k.value for k in node.keywords if k.arg == "val"), None)
                if value is not None:
                    term, target = value, _text(node.args[0]) if node.args else ""
            elif (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Call)
                and name_of(node.value.func) == "sum"
                and node.value.args
                and _axis_zero(node.value)
            ):
                summed = node.value.args[0]
                if _names(summed) & carried:
                    sums.append(_found(function, node, summed, node.targets[0].id, carried))
                continue
            if term is None or not (_names(term) & (carried - {target})):
                continue
            found.append(_found(function, node, term, target, carried))
    plain = [f for f in found if not f["reduction"]]
    for group in (plain, found, sums):
        if group:
            if len({f["line"] for f in group}) != 1:
                return None  # several: which one is the gradient's cannot be told
            return {k: v for k, v in group[0].items() if k != "reduction"}
    return None


def _axis_zero(call: ast.Call) -> bool:
    axis = (
        call.args[1]
        if len(call.args) > 1
        else next((k.value for k in call.keywords if k.arg == "axis"), None)
    )
    return isinstance(axis, ast.Constant) and axis.value == 0


def _found(function: ast.FunctionDef, node: ast.AST, term: ast.AST, target: str, carried: set[str]) -> dict:
    line = getattr(node, "lineno", 0)
    facts: dict[str, Any] = {
        "line": line,
        "term": _text(term),
        "target": target,
        "reduction": _is_reduction(term),
    }
    used = sorted(
        (n for n in ast.walk(term) if isinstance(n, ast.Name) and n.id in carried and n.id != target),
        key=lambda n: (n.lineno, n.col_offset),
    )
    if not used:
        return facts
    name = used[0].id
    defining = [
        n
        for n in ast.walk(function)
        if isinstance(n, ast.Assign)
        and n.lineno < line
        and any(isinstance(t, ast.Name) and t.id == name for t in n.targets)
    ]
    if defining:
        last = max(defining, key=lambda n: n.lineno)
        loads = any(isinstance(c, ast.Call) and name_of(c.func) == "load" for c in ast.walk(last.value))
        if not loads:
            facts.update(via=name, via_line=last.lineno)
    return facts


def grad_times_input(
    plan, inputs: dict, got: tuple, expected: tuple, tols: dict, diagnoses: list, learner_file: str | None
) -> None:
    """A gradient of a verify plan (mode `grad`) whose every element is its right value times an input: of the
    gradient's own shape, element by element, or a 1-D input of its last dimension's length, per column.
    Cause `grad-times-input` with `input`, `per` ("element" | "column"), and, from the learner's file, the
    one accumulation whose term carries that input (`accumulation_carrying`): `line`, `term`, `via`,
    `via_line`."""
    from tritonlab.engine import outputs

    if not plan.grad_inputs:
        return
    for index, name in enumerate(plan.names):
        if not name.startswith("grad_"):
            continue
        diag = _unexplained([d for d in diagnoses if d.get("output") == name])
        value = got[index] if index < len(got) else None
        ref = expected[index] if index < len(expected) else None
        if diag is None or not isinstance(value, torch.Tensor) or not isinstance(ref, torch.Tensor):
            continue
        if not value.is_floating_point() or value.shape != ref.shape:
            continue
        atol, rtol = outputs._tolerance(tols, name)
        e = ref.detach().double().to(value.device)
        for input_name, factor in inputs.items():
            if not (isinstance(factor, torch.Tensor) and factor.is_floating_point()):
                continue
            if factor.shape == value.shape:
                per = "element"
            elif factor.dim() == 1 and value.dim() >= 2 and factor.shape[0] == value.shape[-1]:
                per = "column"
            else:
                continue
            v = factor.detach().double().to(value.device)
            if not bool(torch.isfinite(v).all()) or float(v.max() - v.min()) <= 1e-6 * float(v.abs().max()):
                continue  # one value everywhere is a scale, said elsewhere
            evidence = _evidence(value, e * v, e, atol, rtol)
            if not evidence:
                continue
            if _claim(diag, "grad-times-input", evidence, {"input": input_name, "per": per}):
                found = accumulation_carrying(learner_file, input_name)
                if found is not None and "line" not in diag:
                    diag.update(
                        {k: fact for k, fact in found.items() if k in _LINE_FACTS["grad-times-input"]}
                    )
                diag["message"] = f"{head(diag)}: {_times_message(diag, name)}"
            break


def _times_message(diag: dict, output: str) -> str:
    x = diag["input"]
    spot = f"column j × {x}[j]" if diag.get("per") == "column" else f"element i × {x}[i]"
    said = f"every element of {output} is its right value times {x} ({spot})"
    if not diag.get("line"):
        return (
            f"{said} — a term summed into {output} carries a factor {x} it should not have: check what the "
            f"backward multiplies before it accumulates {output}"
        )
    through = (
        f", and {diag['via']} carries {x} (line {diag['via_line']})"
        if diag.get("via")
        else f", which carries {x}"
    )
    return (
        f"{said} — line {diag['line']} accumulates {diag['term']}{through}: each term summed into {output} "
        f"is {x} times too large — accumulate it without {x}"
    )


# --- sigmoid-sign -------------------------------------------------------------------------------------------


@functools.lru_cache(maxsize=1)
def _sigmoid_flipped_modules() -> dict:
    """`torch` and `F` for a reference in which every sigmoid is sigmoid(-t): sigmoid, silu, logsigmoid."""
    import torch.nn.functional as F

    def silu(t, inplace=False):
        return t * torch.sigmoid(-t)

    flipped_f = types.SimpleNamespace(
        **{k: getattr(F, k) for k in dir(F) if not k.startswith("__")},
    )
    flipped_f.silu = silu
    flipped_f.sigmoid = lambda t: torch.sigmoid(-t)
    flipped_f.logsigmoid = lambda t: F.logsigmoid(-t)

    class _Torch(types.ModuleType):
        def __getattr__(self, key: str):
            return getattr(torch, key)

    flipped_torch = _Torch("torch")
    flipped_torch.sigmoid = lambda t, *a, **k: torch.sigmoid(-t)  # type: ignore[attr-defined]
    flipped_torch.nn = types.SimpleNamespace(functional=flipped_f)  # type: ignore[attr-defined]
    return {"torch": flipped_torch, "F": flipped_f}


_SIGMOID_WORDS = ("sigmoid", "silu", "swish")


def sigmoid_sign(
    diagnoses: list,
    exercise,
    got: torch.Tensor,
    expected: torch.Tensor,
    inputs: dict,
    params: dict,
    kwargs: dict,
    atol: float,
    rtol: float,
    learner_file: str | None,
) -> None:
    """A forward output whose reference takes a sigmoid (sigmoid, silu) and that equals, within the
    tolerance, the reference with every sigmoid(t) made sigmoid(-t): the kernel's sigmoid has its exponent's
    sign flipped. Cause `sigmoid-sign`; `line`, `call`, `expr`, `form` from the file (`flipped_sigmoid`)."""
    diag = _unexplained(diagnoses)
    reference = str(getattr(exercise, "reference", "") or "")
    if diag is None or not any(w in reference for w in _SIGMOID_WORDS) or not got.is_floating_point():
        return
    try:
        with torch.no_grad():
            alt = exercise_env.reference(
                exercise, dict(inputs), params, dict(kwargs), modules=_sigmoid_flipped_modules()
            )
    except Exception:  # noqa: BLE001 - a reference that cannot run with the swapped functions: no claim
        return
    if not isinstance(alt, torch.Tensor) or alt.shape != got.shape:
        return
    if _claim(diag, "sigmoid-sign", _evidence(got, alt, expected, atol, rtol), {}):
        found = flipped_sigmoid(learner_file)
        if found is not None and "line" not in diag:
            diag.update(found)
        diag["message"] = f"{head(diag)}: {_sigmoid_message(diag)}"


def _sigmoid_message(diag: dict) -> str:
    said = "the output equals the right formula with sigmoid(-t) where sigmoid(t) belongs"
    if not diag.get("line"):
        return f"{said} — check the sign of the exponent in your sigmoid: sigmoid(t) = 1 / (1 + exp(-t))"
    if diag.get("form") == "call":
        return (
            f"{said} — line {diag['line']} takes {diag['expr']}, the sigmoid of the negated argument "
            "(sigmoid(-t) = 1 - sigmoid(t)): take the sigmoid of the argument itself"
        )
    where = (
        f"line {diag['line']} takes {diag['call']} and line {diag['expr_line']} makes it {diag['expr']}"
        if diag.get("expr_line")
        else f"line {diag['line']} computes {diag['expr']}"
    )
    return f"{said} — {where}, a sigmoid with the exponent's sign flipped: sigmoid(t) = 1 / (1 + exp(-t))"


def _negated(node: ast.AST, module_values: dict[str, ast.AST], depth: int = 0) -> bool:
    """Whether an exponent is visibly negative: `-a`, `0 - a`, `-a * LOG2_E`, `a * -1.4427`, a name
    (`NEG_LOG2_E`, `neg_a`) that says so or is assigned such a value."""
    if depth > 4:
        return False
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return not _negated(node.operand, module_values, depth + 1)
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        return node.value < 0
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub):
        return isinstance(node.left, ast.Constant) and node.left.value == 0
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.Div)):
        return _negated(node.left, module_values, depth + 1) != _negated(node.right, module_values, depth + 1)
    if isinstance(node, ast.Name):
        if node.id.lower().startswith("neg") or node.id.lower().startswith("minus"):
            return True
        value = module_values.get(node.id)
        return value is not None and _negated(value, module_values, depth + 1)
    if isinstance(node, ast.Call) and name_of(node.func) == "to" and isinstance(node.func, ast.Attribute):
        return _negated(node.func.value, module_values, depth + 1)
    if isinstance(node, ast.Call) and node.args and name_of(node.func) == "constexpr":
        return _negated(node.args[0], module_values, depth + 1)
    return False


def _one(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) in (int, float) and node.value == 1


def sigmoid_shapes(path: str | None) -> list[tuple[bool, dict]]:
    """The sigmoid-shaped expressions of the file's @triton.jit functions, each with whether its exponent's
    sign is visibly flipped: `X / (1 + exp(t))` with t not negated (that is X · sigmoid(-t); `exp2` alike),
    `exp(t) / (1 + exp(t))` with t negated, `tl.sigmoid(-t)`. A name standing for the exp or for 1 + exp is
    followed one assignment back; a sign that cannot be read (|t|, a tanh's (e - 1) / (e + 1) or 2 / (1 +
    exp(t))) is never called flipped. (flipped, {line, call, expr, form, expr_line}) in the file's order."""
    tree = contracts.file_tree(path)
    if tree is None:
        return []
    module_values = {
        t.id: n.value
        for n in getattr(tree, "body", [])
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    shapes: list[tuple[bool, dict]] = []
    for function in _jit_functions(tree):
        local: dict[str, ast.AST] = {}
        for n in ast.walk(function):
            if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
                local.setdefault(n.targets[0].id, n.value)
        values = {**module_values, **local}
        for node in ast.walk(function):
            if isinstance(node, ast.Call) and name_of(node.func) == "sigmoid" and node.args:
                facts = {"line": node.lineno, "call": _text(node), "expr": _text(node), "form": "call"}
                shapes.append((_negated(node.args[0], values), facts))
                continue
            if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div)):
                continue
            den = _resolve(node.right, local)
            if not (isinstance(den, ast.BinOp) and isinstance(den.op, ast.Add)):
                continue
            exp_side = den.right if _one(den.left) else den.left if _one(den.right) else None
            if exp_side is None:
                continue
            named = exp_side if isinstance(exp_side, ast.Name) else None
            exp_call = _resolve(exp_side, local)
            if not (
                isinstance(exp_call, ast.Call) and name_of(exp_call.func) in ("exp", "exp2") and exp_call.args
            ):
                continue
            argument, num = exp_call.args[0], _resolve(node.left, local)
            num_is_exp = (
                isinstance(num, ast.Call)
                and name_of(num.func) in ("exp", "exp2")
                and _text(num) == _text(exp_call)
            ) or (named is not None and isinstance(node.left, ast.Name) and node.left.id == named.id)
            # the sign cannot be read: |t| (a stable two-branch sigmoid), a numerator holding the exp another
            # way ((e - 1) / (e + 1), a tanh) or a constant other than 1 (2 / (1 + exp(t)), a tanh's half)
            unreadable = (
                any(isinstance(n, ast.Call) and name_of(n.func) == "abs" for n in ast.walk(argument))
                or (not num_is_exp and (named is not None and named.id in _names(node.left)))
                or (not num_is_exp and _text(exp_call) in _text(node.left))
                or (isinstance(num, ast.Constant) and not _one(num))
            )
            negative = _negated(argument, values)
            flipped = not unreadable and (negative if num_is_exp else not negative)
            facts = {
                "line": getattr(exp_call, "lineno", node.lineno),
                "call": _text(exp_call),
                "expr": _text(node),
            }
            if facts["line"] != node.lineno:  # the exp on a line of its own (`e = tl.exp(a)`)
                facts["expr_line"] = node.lineno
            shapes.append((flipped, {**facts, "form": "hand"}))
    return sorted(shapes, key=lambda shape: shape[1]["line"])


def _resolve(node: ast.AST, local: dict[str, ast.AST]) -> ast.AST:
    """A name's value (its first assignment in the function), else the node itself."""
    return local.get(node.id, node) if isinstance(node, ast.Name) else node


def flipped_sigmoid(path: str | None) -> dict | None:
    """The sigmoid-shaped expression of the file's @triton.jit functions whose exponent's sign is flipped
    (`sigmoid_shapes`); where none is visibly flipped, the only hand-written one there is (the values said the
    output is sigmoid(-t), and nothing else in the file computes a sigmoid). {line (the exp's, where the sign
    is), call, expr, form ("hand" | "call"), expr_line}, or None."""
    shapes = sigmoid_shapes(path)
    flipped_lines = {f["line"] for is_flipped, f in shapes if is_flipped}
    if len(flipped_lines) == 1:
        return next(f for is_flipped, f in shapes if is_flipped)
    if not flipped_lines and len({f["line"] for _, f in shapes}) == 1 and shapes[0][1]["form"] == "hand":
        return dict(shapes[0][1])  # the only hand-written sigmoid: the values say it is sigmoid(-t)
    return None


# --- across the cases of one verify -------------------------------------------------------------------------

_LINE_FACTS = {
    "grad-times-input": ("line", "term", "via", "via_line"),
    "sigmoid-sign": ("line", "call", "expr", "form", "expr_line"),
}


def carry(cases: list) -> None:
    """A mismatch whose values only `fit` a cause (too few elements to tell it apart on their own: a 1-element
    case) takes it, with its line, from a case of the same verify that named it (for `grad-times-input`, of
    the same output and input); every `fits` is removed."""
    named: dict[tuple, dict] = {}
    for case in cases:
        for diag in case.get("diagnoses") or []:
            if diag.get("cause") in _LINE_FACTS:
                named.setdefault((diag["cause"], diag.get("output"), diag.get("input")), diag)
    for case in cases:
        for diag in case.get("diagnoses") or []:
            fit = diag.pop("fits", None)
            if not isinstance(fit, dict) or diag.get("cause") not in (None, "all-wrong"):
                continue
            source = named.get((fit.get("cause"), diag.get("output"), fit.get("input")))
            if source is None:
                continue
            diag.update(fit)
            if "line" not in diag:
                diag.update({k: source[k] for k in _LINE_FACTS[fit["cause"]] if k in source})
            said = (
                _times_message(diag, str(diag.get("output") or "the gradient"))
                if fit["cause"] == "grad-times-input"
                else _sigmoid_message(diag)
            )
            diag["message"] = f"{head(diag)}: {said}"
