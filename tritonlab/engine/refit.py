"""Wrong values that the judge can reproduce: the reference recomputed under one changed premise, or a
gradient whose error has a shape of its own. Each check fires only when the learner's output matches the
changed reference within the case's own tolerance (or the error fits its shape within it), so a cause said
here is a measurement, not a guess.

- `padding-counted`: the output equals the reference with the streamed axis (contract `loop = [param, block]`)
  padded with zeros up to a multiple of the launch's block — the padding of the last block was counted in
  (keys past the sequence end with score 0, a row's padding loaded as 0 in a softmax).
- `scale`: the output equals the reference with the scale keyword (contract `scale = [keyword, default]`)
  set to another value — the softmax is sharper or flatter than asked (the scale applied twice, or not at
  all, exp for exp2, ...).
- `log-units`: the output equals the reference plus (log2(e) - 1) times its natural-log term (contract
  `log_term`, e.g. the row's logsumexp): a base-2 logarithm (tl.log2 after exp2) never converted back by ln 2.
- `lead_rows` (a fact for the cross-case pattern `masked-block`): the inf/NaN rows are exactly the first k
  positions along the streamed axis, the rows a causal mask lets see the fewest keys.
- `along-input` (gradients): every wrong row of grad_x is the right one plus a multiple of that row of x —
  the term of a norm's backward that is proportional to x (x̂ · mean(g · x̂)) is weighted wrong; when the
  weight is N/W for a launch's block W, the mean divided the row's sum by that block instead of N.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from tritonlab.engine import exercise_env
from tritonlab.engine.inputs import evaluate
from tritonlab.engine.learner import name_of

LOG2_E = math.log2(math.e)
#: a fitted scale within this relative distance of a named form is that form
FORM_CLOSE = 0.03
#: a fitted scale closer than this to the right one (log ratio) is not called a wrong scale
SCALE_MIN = 0.02
#: outputs larger than this are not refitted (about 50 references per fit: the GPU's 2 x 16 x 4096 x 128 case
#: would spend seconds on it; its smaller cases, judged first, still say it)
SCALE_FIT_MAX = 1 << 22


def head(diag: dict) -> str:
    """A diagnosis message up to its first colon: what is wrong, before the lab's guess at why. A plan
    output's message starts with its name (`grad_b: 4 elements differ …: why`): the name and what is wrong."""
    message = str(diag.get("message", ""))
    output = diag.get("output")
    if isinstance(output, str) and output and message.startswith(f"{output}: "):
        return f"{output}: " + message[len(output) + 2 :].split(":")[0]
    return message.split(":")[0]


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _close(got: torch.Tensor, ref: Any, atol: float, rtol: float) -> bool:
    if not isinstance(ref, torch.Tensor) or ref.shape != got.shape:
        return False
    g, r = got.detach().float(), ref.detach().float().to(got.device)
    if not bool(torch.isfinite(r).all()):
        return False
    return bool(torch.isclose(g, r, atol=atol, rtol=rtol).all())


def _reference(exercise, inputs: dict, params: dict, kwargs: dict):
    try:
        with torch.no_grad():
            return exercise_env.reference(exercise, dict(inputs), params, dict(kwargs))
    except Exception:  # a reference that cannot run under the changed premise: no claim
        return None


def _unexplained(diagnoses: list) -> dict | None:
    return next(
        (d for d in diagnoses if d.get("kind") == "mismatch" and d.get("cause") in (None, "all-wrong")), None
    )


# --- the padding of the last block counted in -----------------------------------------------------


def padded(exercise, inputs: dict, params: dict, kwargs: dict, meta: dict, got: torch.Tensor):
    """(the reference with the loop's axis zero-padded to a multiple of its block and cropped back, facts),
    or None."""
    loop = (exercise.verify.contracts or {}).get("loop") or []
    if len(loop) != 2:
        return None
    param, block_name = loop
    size = _int(params.get(param))
    block = _int((meta or {}).get(block_name)) or _int(kwargs.get(block_name))
    if not size or not block or block <= 0 or size % block == 0:
        return None
    width = -(-size // block) * block
    specs = {spec.name: spec for spec in exercise.inputs}
    changed = dict(inputs)
    padded_any = False
    for name, value in inputs.items():
        spec = specs.get(name)
        if not isinstance(value, torch.Tensor) or spec is None or not spec.shape:
            continue
        if len(spec.shape) != value.dim():
            continue
        for axis, dim in enumerate(spec.shape):
            if dim == param and value.shape[axis] == size:
                extra = list(value.shape)
                extra[axis] = width - size
                value = torch.cat([value, value.new_zeros(extra)], dim=axis)
                padded_any = True
        changed[name] = value
    if not padded_any:
        return None
    ref = _reference(exercise, changed, params, kwargs)
    if not isinstance(ref, torch.Tensor) or ref.dim() != got.dim():
        return None
    for axis in range(ref.dim()):
        if ref.shape[axis] == width and got.shape[axis] == size:
            ref = ref.narrow(axis, 0, size)
    facts = {"param": param, "block": block_name, "block_value": block, "size": size, "padded_to": width}
    return ref, facts


def _padding_message(diag: dict) -> str:
    param, block, size, width = diag["param"], diag["block"], diag["size"], diag["padded_to"]
    return (
        f"{head(diag)}: the output equals the reference with {param} padded with zeros to a multiple of "
        f"{block} ({size} → {width}) — the {width - size} padding positions past the end of {param} in the "
        f"last block are counted in: mask them out (positions ≥ {param}) before the max and the sum; a "
        "masked load with other=0.0 still leaves 0 there, where -inf belongs"
    )


# --- the scale ------------------------------------------------------------------------------------


def _forms(right: float) -> list[tuple[str, float]]:
    """Scale factors (fitted / right) that name a mistake."""
    return [
        ("twice-log2e", right * LOG2_E),  # qk_scale = sm_scale · log2(e) multiplied in a second time
        ("twice", right),  # sm_scale multiplied in a second time
        ("missing", 1.0 / right),  # no scale at all
        ("log2e", LOG2_E),  # log2(e) folded in, then exp (base e)
        ("ln2", 1.0 / LOG2_E),  # exp2 without log2(e)
    ]


def scale_fit(
    exercise, inputs: dict, params: dict, kwargs: dict, got: torch.Tensor, atol: float, rtol: float
) -> dict | None:
    """The scale (contract `scale = [keyword, default]`) at which the reference matches the output within the
    case's tolerance, when it is not the right one: {keyword, right, fitted, factor, form}. A coarse grid over
    log(factor) in [-4, 4], then a golden-section refinement of the squared error around its best point."""
    spec = (exercise.verify.contracts or {}).get("scale") or []
    if len(spec) != 2 or not got.is_floating_point() or got.numel() > SCALE_FIT_MAX:
        return None
    if not bool(torch.isfinite(got).all()):
        return None
    keyword, default = spec
    right = kwargs.get(keyword)
    if right is None:
        try:
            right = float(evaluate(default, params))
        except Exception:
            return None
    if not isinstance(right, (int, float)) or not right > 0:
        return None
    g = got.detach().float()

    def ref(t: float):
        return _reference(exercise, inputs, params, {**kwargs, keyword: right * math.exp(t)})

    def loss(t: float) -> float:
        r = ref(t)
        if not isinstance(r, torch.Tensor) or r.shape != g.shape:
            return math.inf
        value = float(((g - r.float().to(g.device)) ** 2).mean())
        return value if math.isfinite(value) else math.inf

    grid = [i / 4 for i in range(-16, 17)]
    losses = [loss(t) for t in grid]
    best = min(range(len(grid)), key=lambda i: losses[i])
    if not math.isfinite(losses[best]):
        return None
    lo, hi = grid[best] - 0.25, grid[best] + 0.25
    ratio = (math.sqrt(5) - 1) / 2
    a, b = hi - ratio * (hi - lo), lo + ratio * (hi - lo)
    fa, fb = loss(a), loss(b)
    for _ in range(16):
        if fa <= fb:
            hi, b, fb = b, a, fa
            a = hi - ratio * (hi - lo)
            fa = loss(a)
        else:
            lo, a, fa = a, b, fb
            b = lo + ratio * (hi - lo)
            fb = loss(b)
    t = (lo + hi) / 2
    if abs(t) < SCALE_MIN or not _close(got, ref(t), atol, rtol):
        return None
    factor = math.exp(t)
    form = next(
        (name for name, value in _forms(float(right)) if abs(math.log(factor / value)) < FORM_CLOSE), None
    )
    return {
        "keyword": keyword,
        "right": round(float(right), 6),
        "fitted": round(float(right) * factor, 6),
        "factor": round(factor, 4),
        "form": form,
    }


_FORM_EN = {
    "twice-log2e": "the scale is applied twice (the scores multiplied by sm_scale · log2(e) once more)",
    "twice": "the scale is applied twice",
    "missing": "the scale is not applied",
    "log2e": "log2(e) is folded into the scale but the exponential is exp, not exp2",
    "ln2": "the exponential is exp2 but log2(e) is not folded into the scale",
}


def _scale_message(diag: dict) -> str:
    factor = float(diag["factor"])
    how = "flatter" if factor < 1 else "sharper"
    form = _FORM_EN.get(str(diag.get("form")))
    return (
        f"{head(diag)}: the output equals the reference computed with {diag['keyword']} = "
        f"{diag['fitted']:.4g} instead of {diag['right']:.4g} ({factor:.4g}× the right scale): the softmax "
        f"is {how} than asked"
        + (f" — {form}" if form else "")
        + " — check the scale: multiply the scores by it exactly once (sm_scale · log2(e) with exp2, "
        "sm_scale with exp)"
    )


def explain(
    diagnoses: list,
    exercise,
    got: torch.Tensor,
    inputs: dict,
    params: dict,
    kwargs: dict,
    meta: dict | None,
    atol: float,
    rtol: float,
) -> None:
    """A mismatch with no cause yet that the reference reproduces under a changed premise: the padding of the
    last block counted in, then a wrong scale."""
    diag = _unexplained(diagnoses)
    if diag is None or not got.is_floating_point() or got.numel() < 1:
        return
    found = padded(exercise, inputs, params, kwargs, meta or {}, got)
    if found is not None and _close(got, found[0], atol, rtol):
        diag.update(cause="padding-counted", **found[1])
        diag["message"] = _padding_message(diag)
        return
    fit = scale_fit(exercise, inputs, params, kwargs, got, atol, rtol)
    if fit is not None:
        diag.update(cause="scale", **fit)
        diag["message"] = _scale_message(diag)


def log_units(
    diagnoses: list,
    exercise,
    got: torch.Tensor,
    expected: torch.Tensor,
    inputs: dict,
    params: dict,
    kwargs: dict,
    atol: float,
    rtol: float,
    file: str | None = None,
) -> None:
    """A mismatch with no cause yet where got = expected + (c - 1) · term, term being the contract `log_term`
    (the natural log the answer contains, e.g. torch.logsumexp(logits.float(), dim=1)): c = log2(e) is that
    log left in base 2 (cause `log-units`, `base` 2, `line` of the learner's first tl.log2); c = ln 2 is a
    natural log used where base 2 belongs (`base` "e")."""
    expression = (exercise.verify.contracts or {}).get("log_term")
    diag = _unexplained(diagnoses)
    if not expression or diag is None or not got.is_floating_point():
        return
    t = _term(exercise, inputs, params, kwargs, expression, expected, got.device)
    if t is None:
        return
    base = expected.detach().double().to(got.device)
    for factor, name in ((LOG2_E, 2), (1 / LOG2_E, "e")):
        if bool((t.abs() > 0).any()) and _close(got, base + (factor - 1.0) * t, atol, rtol):
            line = _first_call(file, "log2") if name == 2 else None
            diag.update(cause="log-units", base=name, term=expression, line=line)
            diag["message"] = (
                f"{head(diag)}: the output equals the answer with its logarithm ({expression}) left in "
                "base 2 — a log2 of a sum of exp2 terms is the natural log times log2(e): multiply it by "
                "ln 2 "
                "(0.6931…) before using it" + (f" (line {line})" if line else "")
                if name == 2
                else f"{head(diag)}: the output equals the answer with its logarithm ({expression}) taken in "
                "base e where base 2 belongs: divide it by ln 2"
            )
            return
    shift = (exercise.verify.contracts or {}).get("log_max")
    m = _term(exercise, inputs, params, kwargs, shift, expected, got.device) if shift else None
    if m is not None and bool((m.abs() > 0).any()) and _close(got, base - m, atol, rtol):
        diag.update(cause="max-dropped", term=expression, shift=shift)
        diag["message"] = (
            f"{head(diag)}: the output equals the answer minus each row's max ({shift}): the logarithm "
            f"({expression}) lost its + max — log(sum(exp(x - m))) is the logsumexp minus m, so add m back"
        )


def _term(exercise, inputs: dict, params: dict, kwargs: dict, expression: str, expected, device):
    """A contract's expression over the case's inputs (like the reference), as float64 on `device`; None when
    the case cannot evaluate it or it is not shaped like the answer."""
    try:
        with torch.no_grad():
            term = exercise_env.reference(exercise, dict(inputs), params, dict(kwargs), expression=expression)
    except Exception:  # noqa: BLE001 - a term the case cannot evaluate: nothing to say
        return None
    if not isinstance(term, torch.Tensor) or term.shape != expected.shape:
        return None
    return term.detach().double().to(device)


def _first_call(file: str | None, name: str) -> int | None:
    """The line of the first call of `name` (tl.log2, math.log2, log2) in the learner's file, or None."""
    import ast

    if not file:
        return None
    try:
        with open(file, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return None
    calls = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call) and name_of(n.func) == name]
    return min(calls) if calls else None


def _powers_of_two(meta: dict | None) -> list[int]:
    """The launch's integer meta-parameters that are powers of two of at least 2 (block widths), sorted."""
    values = {v for v in (meta or {}).values() if _int(v) is not None and v >= 2 and v & (v - 1) == 0}
    return sorted(values)


def padding_in_sum(
    diagnoses: list,
    exercise,
    got: torch.Tensor,
    inputs: dict,
    meta: dict | None,
    atol: float,
    rtol: float,
    file: str | None = None,
) -> None:
    """A row softmax (the reference says softmax) whose output equals exp(x - m) / (Σ exp(x - m) + P·exp(-m)),
    m the row's max and P = W - N the padding lanes of a block W wider than the row: each padding lane reached
    the sum as exp(0 - m) (padding loaded as -inf for the max, then set to 0 before the exp; the same values
    as a softmax over the row with P zeros appended). W is the next power of two of N or a power-of-two
    meta-parameter of the launch above N. Cause `padding-in-sum` (`padding`, `block_value`, `size`; `line` of
    a `tl.where(mask, x, 0.0)` that follows the first tl.max in the learner's file, when there is one)."""
    diag = _unexplained(diagnoses)
    if diag is None or "softmax" not in str(exercise.reference) or got.dim() != 2 or got.numel() < 1:
        return
    x = next(
        (
            v
            for v in inputs.values()
            if isinstance(v, torch.Tensor) and v.shape == got.shape and v.is_floating_point()
        ),
        None,
    )
    if x is None:
        return
    size = got.shape[1]
    xf = x.detach().double().to(got.device)
    if size < 1 or not bool(torch.isfinite(xf).all()):
        return
    m = xf.amax(dim=1, keepdim=True)
    e = torch.exp(xf - m)
    total = e.sum(dim=1, keepdim=True)
    widths = sorted({1 << (size - 1).bit_length()} | {w for w in _powers_of_two(meta) if w > size})
    for width in widths:
        pad = width - size
        if pad <= 0:
            continue
        if _close(got, e / (total + pad * torch.exp(-m)), atol, rtol):
            line = _zeroed_after_max(file)
            diag.update(cause="padding-in-sum", padding=pad, block_value=width, size=size)
            if line is not None:
                diag["line"] = line
            at = f" (line {line})" if line is not None else ""
            terms, lanes = ("term", "lane") if pad == 1 else ("terms", "lanes")
            diag["message"] = (
                f"{head(diag)}: the output equals the softmax with {pad} extra exp(0 - max) {terms} in each "
                f"row's sum — the {pad} padding {lanes} of the {width}-wide block ({size} columns) reach the "
                f"sum as 0{at}: keep the padding at -inf through the exp (exp(-inf) = 0) or mask it out of "
                "the sum"
            )
            return


def _zeroed_after_max(file: str | None) -> int | None:
    """The line of a `name = tl.where(mask, value, 0)` (the third argument a zero constant) that comes after
    the first tl.max call of the learner's file: the padding set to 0 once the max is taken."""
    import ast

    if not file:
        return None
    try:
        with open(file, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return None
    maxes = [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "max"
    ]
    if not maxes:
        return None
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        value = node.value
        if not isinstance(value, ast.Call) or name_of(value.func) != "where" or len(value.args) != 3:
            continue
        zero = value.args[2]
        if isinstance(zero, ast.Constant) and zero.value == 0 and node.lineno > min(maxes):
            found.append(node.lineno)
    return min(found) if found else None


def _one_factor_fits(got: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float) -> torch.Tensor:
    """Per row of 2D float64 tensors: whether one positive factor f makes every element close (|got - f·e| <=
    atol + rtol·|f·e|, torch.isclose's test). Each element with e != 0 allows f in [(h - atol) / (|e|(1 +
    rtol)), (h + atol) / (|e|(1 - rtol))] (h = got·sign(e)); the row fits when those ranges meet above 0 and
    every element with e = 0 is within atol of 0."""
    a = expected.abs()
    h = got * torch.sign(expected)
    nonzero = a > 0
    safe = torch.where(nonzero, a, torch.ones_like(a))
    low = torch.where(nonzero, (h - atol) / (safe * (1 + rtol)), torch.full_like(a, -torch.inf))
    high = torch.where(nonzero, (h + atol) / (safe * max(1 - rtol, 1e-12)), torch.full_like(a, torch.inf))
    lo = low.amax(dim=1).clamp_min(0.0)
    hi = high.amin(dim=1)
    zeros_ok = torch.where(nonzero, True, got.abs() <= atol).all(dim=1)
    return (lo <= hi * (1 + 1e-9)) & (hi > 0) & zeros_ok


def chunk_scale(
    diagnoses: list,
    got: torch.Tensor,
    expected: torch.Tensor,
    meta: dict | None,
    atol: float,
    rtol: float,
    file: str | None = None,
) -> None:
    """A 2D output that is the answer times one factor per chunk of columns — the chunks of a power-of-two
    meta-parameter W of the launch narrower than the row, or of a power of two from 16 up — where the factors
    differ between the chunks of a
    row: each chunk was scaled by something it computed itself (a write pass that shifts by the chunk's own
    max, or divides by its own sum) instead of the row's. Cause `per-chunk-scale` (`block`, `block_value`,
    `factors`: the first failing row's factors, ≤ 8; `line` of the one tl.max / tl.sum assignment inside the
    loop that holds the store, when there is exactly one)."""
    diag = _unexplained(diagnoses)
    if diag is None or got.dim() != 2 or expected.shape != got.shape or got.shape[1] < 2:
        return
    g = got.detach().double()
    ex = expected.detach().double().to(g.device)
    if not (bool(torch.isfinite(g).all()) and bool(torch.isfinite(ex).all())) or not bool((ex != 0).any()):
        return
    rows, cols = g.shape
    # the launch's block widths first; the launch record keeps only BLOCK* names, so then every power of two
    # from 16 up, widest first (a fit at W fits at W/2 too: the widest is the chunk)
    tried = [w for w in _powers_of_two(meta) if w < cols]
    tried += [w for w in (1 << k for k in range(cols.bit_length(), 3, -1)) if w < cols and w not in tried]
    for width in tried:
        chunks = -(-cols // width)
        pad = chunks * width - cols
        gp = torch.nn.functional.pad(g, (0, pad)).reshape(rows, chunks, width)
        ep = torch.nn.functional.pad(ex, (0, pad)).reshape(rows, chunks, width)
        weight = (ep * ep).sum(dim=2)  # a chunk whose answer is all 0 (underflow) fits any factor: 1
        factors = torch.where(weight > 0, (gp * ep).sum(dim=2) / weight.clamp_min(1e-300), 1.0)
        if not bool((factors > 0).all()):
            continue  # a chunk zeroed or negated is another slip (unwritten, a sign), not a scale
        fitted = (ep * factors[:, :, None]).reshape(rows, -1)[:, :cols]
        if not _close(got, fitted, atol, rtol):
            continue
        # a chunk whose answer is all 0 fits any factor: it neither shows nor spoils one row factor
        known = weight > 0
        high = torch.where(known, factors, torch.full_like(factors, -torch.inf)).amax(dim=1)
        low = torch.where(known, factors, torch.full_like(factors, torch.inf)).amin(dim=1)
        spread = torch.where(known.sum(dim=1) > 1, (high - low) / high.abs().clamp_min(1e-300), 0.0)
        # the factors must differ beyond what the tolerance leaves free: a row that one factor fits (a row
        # scale whose small values rounded apart, fp16's atol letting a chunk of tiny values take any factor)
        # shows no chunk of its own
        differs = (spread > max(10 * rtol, 1e-3)) & ~_one_factor_fits(g, ex, atol, rtol)
        if not bool(differs.any()):
            continue  # one factor for the whole row: a row scale, not this
        row = int(torch.nonzero(differs).reshape(-1)[0])
        name = next((k for k, v in (meta or {}).items() if v == width), None)
        diag.update(
            cause="per-chunk-scale",
            block=name,
            block_value=width,
            row=row,
            factors=[round(float(f), 4) for f in factors[row][:8]],
        )
        line = _reduction_in_store_loop(file)
        if line is not None:
            diag["line"] = line
        shown = ", ".join(f"{f:.4g}" for f in diag["factors"])
        at = f" (line {line})" if line is not None else ""
        named = f" ({name})" if name else ""
        diag["message"] = (
            f"{head(diag)}: each chunk of {width} columns{named} is the answer times its "
            f"own factor ({shown} in row {row}) — each chunk is scaled by something it computed itself{at}: "
            "the write pass must use the row's max and sum, not the chunk's"
        )
        return


def _reduction_in_store_loop(file: str | None) -> int | None:
    """The line of the one `name = tl.max(...)` / `tl.sum(...)` / `tl.min(...)` inside a for loop that also
    holds a tl.store (the write pass of a chunked kernel), when exactly one such assignment exists."""
    import ast

    if not file:
        return None
    try:
        with open(file, encoding="utf-8") as handle:
            tree = ast.parse(handle.read())
    except (OSError, SyntaxError, ValueError):
        return None
    found: set[int] = set()
    for loop in ast.walk(tree):
        if not isinstance(loop, ast.For):
            continue
        calls = [n for n in ast.walk(loop) if isinstance(n, ast.Call)]
        if not any(name_of(c.func) == "store" for c in calls):
            continue
        for node in ast.walk(loop):
            if not isinstance(node, ast.Assign):
                continue
            if isinstance(node.value, ast.Call) and name_of(node.value.func) in ("max", "sum", "min"):
                found.add(node.lineno)
    return found.pop() if len(found) == 1 else None


def softmax_temperature(
    diagnoses: list, exercise, got: torch.Tensor, inputs: dict, params: dict, kwargs: dict, atol, rtol
) -> None:
    """A softmax output (the reference says softmax) that equals softmax(x · c) for one c ≠ 1 within the
    tolerance: the scores were scaled on the way to the exponential. c = ln 2 is exp2 without log2(e); c =
    log2(e) is log2(e) folded in but exp kept (cause `softmax-scale`, `factor`, `form` "ln2" | "log2e")."""
    diag = _unexplained(diagnoses)
    if diag is None or "softmax" not in str(exercise.reference) or got.dim() != 2 or got.shape[1] < 2:
        return
    name, x = next(
        (
            (n, v)
            for n, v in inputs.items()
            if isinstance(v, torch.Tensor) and v.shape == got.shape and v.is_floating_point()
        ),
        (None, None),
    )
    if x is None:
        return
    g, xf = got.detach().double(), x.detach().double().to(got.device)
    if not bool(torch.isfinite(g).all()):
        return
    # log-probabilities against each row's largest: log g_ij - log g_i* = c (x_ij - x_i*), where none
    # underflowed
    top = g.argmax(dim=1, keepdim=True)
    valid = g > 1e-30
    lg = torch.where(valid, g, torch.ones_like(g)).log()
    dl = (lg - lg.gather(1, top))[valid]
    dx = (xf - xf.gather(1, top))[valid]
    spread = float((dx * dx).sum())
    if spread <= 0:
        return
    c = float((dx * dl).sum()) / spread
    if not math.isfinite(c) or c <= 0 or abs(math.log(c)) < SCALE_MIN:
        return
    alt = _reference(exercise, {**inputs, str(name): x * c}, params, kwargs)
    if not isinstance(alt, torch.Tensor) or alt.shape != got.shape or not _close(got, alt, atol, rtol):
        return
    form = next(
        (f for f, value in (("ln2", 1 / LOG2_E), ("log2e", LOG2_E)) if abs(math.log(c / value)) < FORM_CLOSE),
        None,
    )
    diag.update(cause="softmax-scale", factor=round(c, 4), form=form, input=name)
    why = {
        "ln2": "the exponential is exp2 but x is not multiplied by log2(e) first (exp(x) = exp2(x·log2(e)))",
        "log2e": "x is multiplied by log2(e) but the exponential is exp, not exp2",
    }.get(str(form), "the scores are scaled on the way to the exponential")
    diag["message"] = (
        f"{head(diag)}: the output equals softmax({name} × {c:.4g}) — the softmax is "
        f"{'flatter' if c < 1 else 'sharper'} than asked: {why}"
    )


def input_axis(
    diagnoses: list, exercise, got: torch.Tensor, inputs: dict, params: dict, kwargs: dict, atol, rtol
) -> None:
    """A 1D input with one value per output column (a bias, a weight: its length is the output's last
    dimension) applied along the rows instead — value i used for all of row i (indexed by the row offsets and
    broadcast [:, None]) where value j belongs to column j. Tested on the reference itself: evaluated again
    with that input moved to the rows, it gives what the learner's kernel returned (cause `input-axis`)."""
    diag = _unexplained(diagnoses)
    if diag is None or got.dim() != 2 or got.numel() < 2:
        return
    rows, cols = got.shape
    for name, value in inputs.items():
        if not (isinstance(value, torch.Tensor) and value.dim() == 1 and value.shape[0] == cols):
            continue
        moved = torch.zeros((rows, 1), dtype=value.dtype, device=value.device)
        moved[: min(rows, cols), 0] = value[: min(rows, cols)]  # rows past its length: a masked load's 0
        alt = _reference(exercise, dict(inputs, **{name: moved}), params, kwargs)
        if not isinstance(alt, torch.Tensor) or tuple(alt.shape) != tuple(got.shape):
            continue
        g, a = got.detach().float(), alt.detach().float().to(got.device)
        if torch.equal(a, g) or bool(((g - a).abs() <= atol + rtol * a.abs()).all()):
            diag.update(cause="input-axis", input=name, length=cols)
            diag["message"] = (
                f"{head(diag)}: the output matches {name} applied per row ({name}[i] to every "
                f"element of row i) — {name} holds one value per output column ({cols}): index it with the "
                "column offsets and broadcast it down the rows ([None, :])"
            )
            return


def input_terms(
    diagnoses: list, got: torch.Tensor, expected: torch.Tensor, inputs: dict, atol: float, rtol: float
) -> None:
    """A 1D input with one value per output column (a bias, a weight) that the output has wrongly: left out of
    some columns (the output is the reference less that input there: its load's mask or offsets skip them,
    cause `input-missing`), or applied as another factor in every column — not at all, as (1 + w), or twice
    (cause `input-factor`, `form` "missing" | "one-plus" | "twice"). Each form is the reference recomputed
    from the output's own values and must match within the case's tolerance."""
    diag = _unexplained(diagnoses)
    if diag is None or got.dim() != 2 or got.shape != expected.shape or not got.is_floating_point():
        return
    cols = got.shape[1]
    g, e = got.detach().double(), expected.detach().double().to(got.device)

    def close(alt: torch.Tensor, where: torch.Tensor | None = None) -> bool:
        ok = (g - alt).abs() <= atol + rtol * alt.abs()
        return bool((ok if where is None else ok[:, where]).all())

    wrong = ~((g - e).abs() <= atol + rtol * e.abs())
    columns = wrong.any(dim=0)
    for name, value in inputs.items():
        if not (isinstance(value, torch.Tensor) and value.dim() == 1 and value.shape[0] == cols):
            continue
        w = value.detach().double().to(got.device)[None, :]
        if not bool(torch.isfinite(w).all()):
            continue
        if bool(columns.any()) and close(e - w, columns):
            bad = columns.nonzero().flatten().tolist()
            diag.update(cause="input-missing", input=name, first_col=bad[0], last_col=bad[-1])
            diag["message"] = (
                f"{head(diag)}: in columns {bad[0]}–{bad[-1]} the output is the reference without {name} — "
                f"{name} was not added there: check the mask and the offsets of {name}'s load (one value per "
                "output column, masked against the number of columns)"
            )
            return
        if bool((w.abs() < 1e-3).any()):
            continue  # a factor of ~0 or 1/~0: nothing to tell apart
        forms = (("missing", e / w), ("one-plus", e * (1 + w) / w), ("twice", e * w))
        for form, alt in forms:
            if close(alt):
                diag.update(cause="input-factor", input=name, form=form)
                said = {
                    "missing": f"every column is the reference divided by its {name}: {name} is not applied",
                    "one-plus": f"every column is the reference times (1 + {name}) / {name}: {name} is "
                    f"applied as (1 + {name}) — a Gemma-style offset the reference does not use",
                    "twice": f"every column is the reference times its {name} once more: {name} is applied "
                    "twice",
                }[form]
                diag["message"] = f"{head(diag)}: {said}"
                return


def input_terms_per_output(
    plan, inputs: dict, got: tuple, expected: tuple, tols: dict, diagnoses: list
) -> None:
    """input_terms for each output of a verify plan (a gradient without its weight: grad_x is the reference
    divided by w, column by column)."""
    from tritonlab.engine import outputs

    for index, name in enumerate(plan.names):
        value = got[index] if index < len(got) else None
        ref = expected[index] if index < len(expected) else None
        if not isinstance(value, torch.Tensor) or not isinstance(ref, torch.Tensor):
            continue
        mine = [d for d in diagnoses if d.get("output") == name]
        if mine:
            atol, rtol = outputs._tolerance(tols, name)
            input_terms(mine, value, ref.to(value.device), inputs, atol, rtol)


def upstream_ignored(
    exercise, plan, inputs: dict, params: dict, kwargs: dict, got: tuple, tols: dict, diagnoses: list
) -> None:
    """Every wrong gradient equals the reference's gradient for dy = 1: the backward never multiplied by the
    upstream gradient (dy, dc) it was handed. Cause `upstream-ignored` on each such gradient's diagnosis."""
    import dataclasses

    from tritonlab.engine import outputs

    if not plan.grad_inputs or plan.grad_output == "ones":
        return
    wrong = {
        d.get("output"): d for d in diagnoses if d.get("cause") in (None, "all-wrong") and d.get("output")
    }
    grads = [n for n in plan.names[1:] if n in wrong]
    if not grads:
        return
    try:
        ones = dataclasses.replace(plan, grad_output="ones").reference(exercise, dict(inputs), params, kwargs)
    except Exception:  # noqa: BLE001 - nothing to compare with
        return
    matched = []
    for index, name in enumerate(plan.names):
        if name not in grads:
            continue
        value = got[index] if index < len(got) else None
        ref = ones[index] if index < len(ones) else None
        atol, rtol = outputs._tolerance(tols, name)
        if not isinstance(value, torch.Tensor) or not _close(value, ref, atol, rtol):
            return  # one wrong gradient that this does not explain: say nothing
        matched.append(name)
    for name in matched:
        diag = wrong[name]
        diag.update(cause="upstream-ignored")
        diag["message"] = (
            f"{head(diag)}: {name} equals the gradient for an upstream gradient of all ones — the backward "
            "never multiplied by the gradient it was handed (dy): multiply by it (the chain rule)"
        )


# --- inf/NaN in the first rows of a sequence ------------------------------------------------------


def lead_rows(diagnoses: list, exercise, got: torch.Tensor, expected: torch.Tensor, params: dict) -> None:
    """For an inf/NaN diagnosis: when the bad rows, taken along the output's second-to-last axis (the streamed
    axis of contract `loop`, e.g. the query positions of attention), are exactly the first k positions of
    every sequence (k < its length), record `lead_rows = k` (and `lead_of`, the axis's length)."""
    loop = (exercise.verify.contracts or {}).get("loop") or []
    diag = next((d for d in diagnoses if d.get("kind") == "nan"), None)
    if diag is None or len(loop) != 2 or got.dim() < 2 or got.shape != expected.shape:
        return
    size = _int(params.get(loop[0]))
    if not size or size < 2 or got.shape[-2] != size:
        return
    g, e = got.detach(), expected.detach().to(got.device)
    bad = ~torch.isfinite(g) & torch.isfinite(e)
    positions = bad.reshape(-1, size, got.shape[-1]).any(dim=2).any(dim=0)
    found = positions.nonzero().flatten().tolist()
    if found and found == list(range(len(found))) and len(found) < size:
        diag.update(lead_rows=len(found), lead_of=size)


# --- a norm backward's mean term ------------------------------------------------------------------


def along_input(
    exercise,
    plan,
    inputs: dict,
    params: dict,
    got: tuple,
    expected: tuple,
    tols: dict,
    mine: list,
    diagnoses: list,
) -> None:
    """A failing grad_X (X a 2D input of the gradient's shape) whose every row is its reference plus a
    multiple of that row of X, within the tolerance: the term of the backward proportional to X is weighted
    wrong (cause `along-input`). For an RMS norm (a 1D weight of the row's length and a scalar eps among the
    inputs) the weight is measured: the learner's mean term is `weight` × the right one; N/W for a block W the
    backward launched with names it (`mean_block`)."""
    from tritonlab.engine import outputs

    for index, name in enumerate(plan.names):
        diag = next(
            (
                d
                for d in diagnoses
                if d.get("output") == name
                and d.get("kind") == "mismatch"
                and d.get("cause") in (None, "all-wrong")
            ),
            None,
        )
        x = inputs.get(name.removeprefix("grad_")) if name.startswith("grad_") else None
        value = got[index] if index < len(got) else None
        ref = expected[index] if index < len(expected) else None
        if diag is None or not isinstance(x, torch.Tensor) or x.dim() != 2 or not x.is_floating_point():
            continue
        if not isinstance(value, torch.Tensor) or not isinstance(ref, torch.Tensor) or value.shape != x.shape:
            continue
        if ref.shape != x.shape or x.shape[1] < 2:
            continue
        atol, rtol = outputs._tolerance(tols, name)
        g, e, xf = (
            value.detach().float(),
            ref.detach().float().to(value.device),
            x.detach().float().to(value.device),
        )
        if not (bool(torch.isfinite(g).all()) and bool(torch.isfinite(e).all())):
            continue
        err = g - e
        norm2 = (xf * xf).sum(dim=1)
        alpha = torch.where(
            norm2 > 0, (err * xf).sum(dim=1) / norm2.clamp_min(1e-30), torch.zeros_like(norm2)
        )
        fitted = e + alpha[:, None] * xf
        allowance = atol + rtol * e.abs()
        if not bool(((g - fitted).abs() <= allowance).all()):
            continue
        moved = ((alpha[:, None] * xf).abs() > allowance).any(dim=1)
        if not bool(moved.any()):
            continue
        rows = moved.nonzero().flatten().tolist()
        diag.update(
            cause="along-input", input=name.removeprefix("grad_"), rows_along=rows[:8], rows_total=len(rows)
        )
        weight = _mean_weight(inputs, x, value, plan, alpha, moved)
        if weight is not None:
            diag["mean_weight"] = round(weight, 4)
            n = x.shape[1]
            for launch in mine:
                if launch.get("phase") not in (None, "backward"):
                    continue
                for key, block in (launch.get("meta") or {}).items():
                    if _int(block) and block != n and abs(weight - n / block) <= 0.02 * abs(weight):
                        diag.update(mean_block=key, block_value=block, n=n)
                        break
                if "mean_block" in diag:
                    break
        diag["message"] = _along_message(diag, name)
        return


def _mean_weight(inputs: dict, x: torch.Tensor, value: torch.Tensor, plan, alpha, moved) -> float | None:
    """For an RMS norm y = x · rstd · w (rstd = 1/sqrt(mean(x²) + eps)), dx = rstd · g − β · x with g = dy · w
    and β = rstd³ · mean(g · x): the learner's term is c · β · x, so alpha = (1 − c) · β per row. c when it is
    one number for every moved row (within 2%), else None."""
    n = x.shape[1]
    weight = next(
        (v for v in inputs.values() if isinstance(v, torch.Tensor) and v.dim() == 1 and v.shape[0] == n), None
    )
    eps = next((v for k, v in inputs.items() if k == "eps" and isinstance(v, (int, float))), None)
    if weight is None or eps is None:
        return None
    try:
        xf = x.detach().float().to(value.device)
        dy = plan.upstream(torch.empty(x.shape, dtype=x.dtype, device=value.device)).float()
        rstd = torch.rsqrt((xf * xf).mean(dim=1) + float(eps))
        beta = rstd**3 * (dy * weight.detach().float().to(value.device) * xf).mean(dim=1)
    except Exception:
        return None
    use = moved & (beta.abs() > 1e-6)
    if int(use.sum()) < 1:
        return None
    c = 1 - alpha[use] / beta[use]
    mean = float(c.mean())
    if not math.isfinite(mean) or float((c - mean).abs().max()) > 0.02 * max(abs(mean), 1e-6):
        return None
    return mean


def _along_message(diag: dict, name: str) -> str:
    x = diag["input"]
    head = ": ".join(str(diag.get("message", "")).split(": ", 2)[:2])
    said = (
        f"{head}: every wrong row of {name} is its right value plus a multiple of that row of {x} — the term "
        f"of the backward proportional to {x}, {x}̂ · mean(g · {x}̂), has the wrong weight"
    )
    if diag.get("mean_block"):
        return (
            f"{said} ({diag['mean_weight']:.4g}× = N/{diag['mean_block']} = "
            f"{diag['n']}/{diag['block_value']}): the mean divides the row's sum by {diag['mean_block']}, "
            "the padded block, instead of N — divide by N"
        )
    if diag.get("mean_weight") is not None:
        return (
            f"{said} ({diag['mean_weight']:.4g}× the right one): check the mean — the row's sum divided by N"
        )
    return f"{said}: check the mean — the row's sum divided by N, the row length — and the factors around it"
