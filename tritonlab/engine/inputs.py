"""Builds an exercise's inputs for one case: seeded values, the declared dtype and memory layout."""

from __future__ import annotations

import math
import zlib

import torch

DTYPES = {
    "float32": torch.float32,
    "float16": torch.float16,
    "bfloat16": torch.bfloat16,
    "float64": torch.float64,
    "int32": torch.int32,
    "int64": torch.int64,
    "int8": torch.int8,
    "uint8": torch.uint8,
    "bool": torch.bool,
}

_EXPR_GLOBALS = {
    "__builtins__": {},
    "min": min,
    "max": max,
    "int": int,
    "abs": abs,
    "math": math,
    "cdiv": lambda a, b: -(-a // b),
    "next_power_of_2": lambda n: 1 if n <= 1 else 1 << (int(n) - 1).bit_length(),
}


def evaluate(expression, names: dict):
    """Evaluate a lesson's size/bytes expression (trusted content) over case params."""
    if isinstance(expression, (int, float)):
        return expression
    return eval(str(expression), dict(_EXPR_GLOBALS), dict(names))  # noqa: S307 - lesson files are shipped content


def case_dtype(spec_dtype: str, case: str) -> torch.dtype:
    return DTYPES[case if spec_dtype == "case" else spec_dtype]


def _generator(device: torch.device, seed: int, name: str) -> torch.Generator:
    """A generator on the tensor's own device, seeded from (case seed, input name): the same values on every
    run.

    Values are drawn where they will be used. Drawing them on the CPU and copying them over cost 2 of the 2.3
    s of a GPU verify of vector add (7.8 of 8.8 s for matmul); on the GPU the same draw takes microseconds.
    """
    gen = torch.Generator(device=device)
    gen.manual_seed((seed * 1_000_003 + zlib.crc32(name.encode())) % (2**63))
    return gen


def _values(
    shape,
    dtype: torch.dtype,
    init: str,
    init_args,
    scale: float,
    seed: int,
    name: str,
    device: torch.device | str = "cpu",
) -> torch.Tensor:
    """Seeded values of one input, made on `device`. Drawn in float32 (float64 for a float64 input), scaled,
    then rounded once to the input's dtype (integers rounded and clamped, fp16 clamped to its finite
    range)."""
    device = torch.device(device)
    gen = _generator(device, seed, name)
    work = torch.float64 if dtype == torch.float64 else torch.float32
    numel = math.prod(shape)
    if init == "arange":
        base = torch.arange(numel, dtype=work, device=device).reshape(shape)
    elif init == "ones":
        base = torch.ones(shape, dtype=work, device=device)
    elif init == "zeros":
        base = torch.zeros(shape, dtype=work, device=device)
    elif init == "rand":
        base = torch.rand(shape, generator=gen, dtype=work, device=device)
    elif init == "randint":
        low, high = (tuple(init_args) + (0, 10))[:2] if len(init_args) != 1 else (0, init_args[0])
        base = torch.randint(low, high, shape, generator=gen, dtype=torch.int64, device=device).to(work)
    elif init == "large":
        base = torch.randn(shape, generator=gen, dtype=work, device=device) * 1e4
    else:
        base = torch.randn(shape, generator=gen, dtype=work, device=device)
    if scale != 1:
        base = base * scale
    if dtype == torch.bool:
        return base > (0.5 if init == "rand" else 0)
    if not dtype.is_floating_point:
        info = torch.iinfo(dtype)
        base = base.round().clamp(info.min, info.max)
    elif dtype == torch.float16:
        base = base.clamp(-65504, 65504)
    return base.to(dtype)


def other_device(device: torch.device) -> torch.device:
    """A device the wrapper must refuse to mix with `device`: cpu on a GPU run, meta on the interpreter."""
    return torch.device("cpu") if device.type == "cuda" else torch.device("meta")


def make_inputs(
    exercise,
    params: dict,
    dtype_name: str,
    seed: int,
    device: torch.device,
    allocator=None,
    override: dict | None = None,
    passing=(),
) -> dict:
    """Inputs in declaration order: name -> tensor or scalar. Tensors are placed by a
    memcheck.GuardedAllocator (inside poisoned guard zones), so verify, run and bench see the very same
    layouts; their values are drawn on that device. `override` maps an input name to changes: shape, dtype,
    layout, device="other", value (scalars), and init (a pair: the distribution's name and its arguments) with
    scale, which bench uses to time on realistic data rather than on verify's adversarial values. An optional
    input is made only when `passing` names it (a variant's "@with": see `optional_passed`)."""
    if allocator is None:
        from tritonlab.engine.memcheck import GuardedAllocator

        allocator = GuardedAllocator(device)
    override = override or {}
    result = {}
    for spec in exercise.inputs:
        if getattr(spec, "optional", False) and spec.name not in passing:
            continue
        change = override.get(spec.name, {})
        if spec.is_scalar:
            result[spec.name] = evaluate(change.get("value", spec.value), params)
            continue
        shape = [int(evaluate(d, params)) for d in change.get("shape", spec.shape)]
        dtype = case_dtype(change.get("dtype", spec.dtype), dtype_name)
        layout = change.get("layout", spec.layout)
        init, init_args = change.get("init", (spec.init, spec.init_args))
        init_args = tuple(int(evaluate(a, params)) if isinstance(a, str) else a for a in init_args)
        scale = change.get("scale", spec.scale)
        if change.get("device") == "other":
            target = other_device(device)
            result[spec.name] = (
                torch.empty(shape, dtype=dtype, device=target)
                if target.type == "meta"
                else _values(shape, dtype, init, init_args, scale, seed, spec.name, target)
            )
            continue
        tensor = allocator.empty(shape, dtype, layout=layout, name=spec.name)
        tensor.copy_(_values(shape, dtype, init, init_args, scale, seed, spec.name, tensor.device))
        result[spec.name] = tensor
    return result


def optional_passed(exercise, kwargs: dict | None) -> list[str]:
    """The optional inputs a case passes: those its variant names in "@with" (lesson data checked at load)."""
    named = (kwargs or {}).get("@with") or []
    return [spec.name for spec in exercise.inputs if getattr(spec, "optional", False) and spec.name in named]


def call_args(exercise, values: dict) -> tuple[list, dict]:
    """(positional, keyword) arguments of the wrapper: the declared inputs in order, the optional ones that
    are present by their names."""
    optional = {spec.name for spec in exercise.inputs if getattr(spec, "optional", False)}
    return (
        [v for k, v in values.items() if k not in optional],
        {k: v for k, v in values.items() if k in optional},
    )


def case_inputs(
    exercise, params: dict, dtype_name: str, seed: int, device, kwargs: dict | None = None
) -> dict:
    """One verify case's input values, made the same way in the judge and in the runner: the judge keeps its
    copy for the reference and sends only (params, dtype, seed, the variant) and a digest; the runner rebuilds
    the same values on its own device instead of receiving hundreds of MB through a file (a GPU verify of
    lesson 5 moved 286 MB of inputs device → host → file → host → device). Deterministic: every tensor is
    drawn from its own seeded generator (`_values`), and the contracts' data changes are fixed. The variant
    (`kwargs`) decides which optional inputs exist."""
    from tritonlab.engine import contracts

    values = make_inputs(
        exercise, params, dtype_name, seed, device, passing=optional_passed(exercise, kwargs)
    )
    contracts.prepare_inputs(exercise, values)  # e.g. a zero row, where a missing eps shows
    return values


_DIGEST_CHUNK = 1 << 22
_INT_OF_SIZE = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def digest(values: dict) -> dict:
    """name -> a checksum of each tensor's exact bits (and shape, dtype), computed where the tensor lives
    (no copy to the host): the runner checks that the inputs it rebuilt are the judge's, bit for bit."""
    out = {}
    for name, value in values.items():
        if not isinstance(value, torch.Tensor):
            out[name] = repr(value)
            continue
        flat = value.detach().contiguous().reshape(-1)
        ints = (
            flat.view(_INT_OF_SIZE[flat.element_size()]) if flat.dtype != torch.bool else flat.to(torch.uint8)
        )
        total = 0
        for start in range(0, ints.numel(), _DIGEST_CHUNK):
            chunk = ints[start : start + _DIGEST_CHUNK].to(torch.int64)
            weights = torch.arange(
                start + 1, start + 1 + chunk.numel(), device=chunk.device, dtype=torch.int64
            )
            # integer sums wrap around the same way in any order: the same bits give the same digest
            total = (total + int((chunk * (weights % 65521 + 1)).sum().item())) % (1 << 61)
        out[name] = f"{tuple(value.shape)}:{value.dtype}:{total:x}"
    return out


def far_rows_input(kwargs: dict | None) -> str | None:
    """The input a case's "@far_rows" directive names (the far_rows contract's case), or None."""
    name = (kwargs or {}).get("@far_rows")
    return name if isinstance(name, str) else None


def place_inputs(
    exercise, params: dict, dtype_name: str, values: dict, allocator, kwargs: dict | None = None
) -> dict:
    """The judge's input values re-placed in this process's guard zones, in the layouts the lesson declares
    (and the far-rows layout for the input a case's "@far_rows" names): the runner gets the values from the
    judge and the layouts from the lesson, never the judge's memory."""
    far = far_rows_input(kwargs)
    if far and isinstance(values.get(far), torch.Tensor) and values[far].dim() == 2:
        short = allocator.far_rows_shortfall(tuple(values[far].shape), values[far].dtype)
        if short is not None:  # said as a note (contracts.far_rows_contiguous), never a failure
            allocator.far_rows_declined = {"input": far, **short}
            far = None
    result = {}
    for spec in exercise.inputs:
        if spec.name not in values:  # an optional input this case does not pass
            continue
        value = values[spec.name]
        if spec.is_scalar or not isinstance(value, torch.Tensor):
            result[spec.name] = value
            continue
        layout = "far-rows" if spec.name == far and value.dim() == 2 else spec.layout
        try:
            tensor = allocator.empty(tuple(value.shape), value.dtype, layout=layout, name=spec.name)
        except (RuntimeError, MemoryError):  # an interpreter runner's address-space limit (judge.py)
            if layout != "far-rows":
                raise
            rows, cols = value.shape
            needed = ((rows - 1) * (1 << 30) + cols) * value.element_size()
            allocator.far_rows_declined = {"input": far, "needed": needed, "free": None}
            tensor = allocator.empty(tuple(value.shape), value.dtype, layout=spec.layout, name=spec.name)
        tensor.copy_(value.to(tensor.device))
        result[spec.name] = tensor
    return result


def size_names(exercise) -> set[str]:
    """The case parameters that size a tensor (the only ones a random case may move: a BLOCK or a degree
    parameter has a meaning the reference depends on)."""
    import re

    names: set[str] = set()
    for spec in exercise.inputs:
        for dim in spec.shape if not spec.is_scalar else ():
            names.update(re.findall(r"[A-Za-z_]\w*", str(dim)))
    return names


def jittered(params: dict, rng, names: set[str], spread: float = 0.25) -> dict:
    """A size the learner cannot have special-cased: every size parameter > 1 moved by up to ±spread (at least
    ±3), never below 1, drawn from the judge's secret per-verify seed."""
    moved = {}
    for key, value in params.items():
        if key in names and isinstance(value, int) and not isinstance(value, bool) and value > 1:
            reach = max(3, int(value * spread))
            moved[key] = max(1, value + rng.randint(-reach, reach))
        else:
            moved[key] = value
    return moved


def facts(value) -> dict:
    """A value as facts for the UI to word: a tensor's `shape`, `dtype`, `device` and (when it is not
    contiguous) `strides`; anything else as its `repr`. `tritonlab.present.tensors.tensor_text` writes them in
    the learner's language."""
    if not isinstance(value, torch.Tensor):
        return {"repr": repr(value)}
    out: dict = {
        "shape": list(value.shape),
        "dtype": str(value.dtype).removeprefix("torch."),
        "device": value.device.type,
    }
    if not value.is_contiguous():
        out["strides"] = list(value.stride())
    return out


def describe(value) -> str:
    """The same facts as English text ("(10,) float32 on cpu"): the `inputs` text `--json` has always carried
    (read back by `present.tensors.facts_from_text` where no facts came with it)."""
    f = facts(value)
    if "shape" not in f:
        return f["repr"]
    layout = f", strides {tuple(f['strides'])}" if "strides" in f else ""
    return f"{tuple(f['shape'])} {f['dtype']} on {f['device']}{layout}"
