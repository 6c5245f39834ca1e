"""Builds one Exercise from its `[[exercise]]` table, one concern per function: files and code, inputs, the
verification protocol, reject cases, benchmark and demo. The schema has already checked keys and types, so
these only check meaning (a dtype exists, a file is there, an expression parses) and raise FileProblem at the
key."""

from __future__ import annotations

import re
from pathlib import Path

from tritonlab.content.model import (
    DTYPES,
    INITS,
    LAYOUTS,
    REQUIREMENTS,
    BenchSpec,
    Exercise,
    InputSpec,
    RejectCase,
    RunSpec,
    VerifySpec,
)
from tritonlab.content.toml_source import read_text
from tritonlab.content.where import Where

ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_INIT_CALL = re.compile(r"^(\w+)\s*(?:\(([^)]*)\))?$")


def parse_exercise(raw: dict, where: Where, folder: Path, kernels_root: Path) -> Exercise:
    eid = raw["id"]
    if not ID.match(eid):
        raise (where / "id").fail("bad-id", value=eid)
    starter, solution = _files(raw, where, folder, kernels_root)
    _code(raw, where)
    inputs = [_input(name, spec, where / "inputs" / name) for name, spec in (raw.get("inputs") or {}).items()]
    verify = _verify(raw["verify"], where / "verify", inputs)
    return Exercise(
        lesson_id=folder.name,
        id=eid,
        title=raw["title"],
        starter=starter,
        solution=solution,
        entry=raw["entry"],
        reference=raw["reference"],
        outcomes=list(raw.get("outcomes") or []),
        hints=list(raw.get("hints") or []),
        inputs=inputs,
        verify=verify,
        rejects=[
            _reject(rj, where / "reject" / i, inputs, verify) for i, rj in enumerate(raw.get("reject") or [])
        ],
        bench=_bench(raw["bench"], where / "bench", verify) if "bench" in raw else None,
        run=_run(raw["run"], where / "run", verify) if "run" in raw else None,
        expect_kernel=raw.get("expect_kernel", True),
        refuse_with=list(raw.get("refuse_with") or []),
        line=where.line,
    )


def _files(raw: dict, where: Where, folder: Path, kernels_root: Path) -> tuple[Path, Path]:
    """The starter (in the lesson folder, UTF-8 text: the editor and the check read it) and the solution."""
    starter = folder / raw["starter"]
    if not starter.is_file():
        raise (where / "starter").fail("file-not-found", file=raw["starter"], where=f"{folder.name}/")
    read_text(starter)
    solution = kernels_root / raw["solution"]
    if not solution.is_file():
        raise (where / "solution").fail("file-not-found", file=raw["solution"], where="kernels/")
    return starter, solution


def _code(raw: dict, where: Where) -> None:
    if not IDENT.match(raw["entry"]):
        raise (where / "entry").fail("not-a-name")
    try:
        compile(raw["reference"], "<reference>", "eval")
    except SyntaxError as exc:
        raise (where / "reference").fail("not-an-expression", detail=exc.msg) from None


def _dtype(value: str, where: Where, allow_case: bool = False) -> str:
    if (allow_case and value == "case") or value in DTYPES:
        return value
    raise where.fail("unknown-choice", value=value, allowed=list(DTYPES))


def _layout_fits(layout: str, shape: list) -> bool:
    """transposed needs a 2D shape; sliced a 1D (every other element) or 2D one (slices of wider rows)."""
    return not (
        (layout == "transposed" and len(shape) != 2) or (layout == "sliced" and len(shape) not in (1, 2))
    )


def _input(name: str, spec: dict, where: Where) -> InputSpec:
    if not IDENT.match(name):
        raise where.fail("not-a-name")
    dtype = _dtype(spec.get("dtype", "case"), where / "dtype", allow_case=True)
    optional = bool(spec.get("optional", False))
    if "value" in spec:
        return InputSpec(name=name, value=spec["value"], dtype=dtype, optional=optional)
    shape = spec.get("shape")
    if shape is None:
        raise where.fail("input-form")
    init, init_args = _init_call(spec.get("init", "randn"), where / "init")
    layout = spec.get("layout", "contiguous")
    if layout not in LAYOUTS:
        raise (where / "layout").fail("unknown-choice", value=layout, allowed=list(LAYOUTS))
    if not _layout_fits(layout, shape):
        raise (where / "layout").fail("layout-2d", layout=layout)
    bench_layout = spec.get("bench_layout", layout)
    if bench_layout not in LAYOUTS:
        raise (where / "bench_layout").fail("unknown-choice", value=bench_layout, allowed=list(LAYOUTS))
    if not _layout_fits(bench_layout, shape):
        raise (where / "bench_layout").fail("layout-2d", layout=bench_layout)
    return InputSpec(
        name=name,
        shape=shape,
        init=init,
        init_args=init_args,
        scale=float(spec.get("scale", 1.0)),
        dtype=dtype,
        layout=layout,
        bench_layout=bench_layout,
        optional=optional,
    )


def _init_call(text: str, where: Where) -> tuple[str, tuple]:
    """`randn`, `randint(0, 10)`: the init's name and integer arguments."""
    match = _INIT_CALL.match(text.strip())
    if not match or match.group(1) not in INITS:
        raise where.fail("unknown-choice", value=text, allowed=list(INITS))
    try:
        # integers, or a case param's name (randint(0, V): class ids below the vocabulary size of the case)
        args = (
            tuple(a.strip() if IDENT.match(a.strip()) else int(a) for a in match.group(2).split(","))
            if match.group(2)
            else ()
        )
    except ValueError:
        raise where.fail("init-args") from None
    return match.group(1), args


def _verify(raw: dict, where: Where, inputs: list[InputSpec]) -> VerifySpec:
    dtypes = raw.get("dtypes", ["float32"])
    if not dtypes:
        raise (where / "dtypes").fail("empty")
    dtypes = [_dtype(d, where / "dtypes" / i) for i, d in enumerate(dtypes)]
    seeds = raw.get("seeds", [0])
    if not seeds:
        raise (where / "seeds").fail("empty")
    interpreter = raw["interpreter"]
    if not interpreter:
        raise (where / "interpreter").fail("empty-cases")
    tolerance = raw.get("tolerance") or {}
    for dtype, tol in tolerance.items():
        _dtype(dtype, where / "tolerance" / dtype)
        if not tol:
            raise (where / "tolerance" / dtype).fail("tolerance-keys")
    sum_rounding = raw.get("sum_rounding")
    if sum_rounding is not None and not 0 < sum_rounding <= 1000:
        raise (where / "sum_rounding").fail("out-of-range", value=sum_rounding, low=0, high=1000)
    output = raw.get("output", "tensor")
    if output != "tensor" and not (output.startswith("inplace:") and output[8:] in {i.name for i in inputs}):
        raise (where / "output").fail("output-form")
    variants = raw.get("variants") or [{}]
    optional = {i.name for i in inputs if i.optional}
    for index, variant in enumerate(variants):
        named = variant.get("@with") or []
        if sorted(set(named) - optional):
            raise (where / "variants" / index / "@with").fail(
                "with-not-optional", names=sorted(set(named) - optional)
            )
    # a verify plan (engine/outputs.py): several outputs, gradients or operators
    plan = raw.get("mode", "values") != "values" or bool(raw.get("outputs") or raw.get("ops"))
    if optional and plan:  # the plan passes every input by position
        raise (where / "variants").fail("optional-plan", names=sorted(optional))
    _row_contracts(raw.get("contracts") or {}, where / "contracts", inputs, plan)
    return VerifySpec(
        dtypes=dtypes,
        seeds=seeds,
        interpreter=interpreter,
        gpu=raw.get("gpu") or interpreter,
        variants=variants,
        tolerance=tolerance,
        sum_rounding=None if sum_rounding is None else float(sum_rounding),
        output=output,
        bytes_budget=raw.get("bytes_budget"),
        **_verify_outputs(raw, where, inputs),
        contracts=dict(raw.get("contracts") or {}),
    )


ROW_CONTRACTS = ("zero_row", "low_row", "high_row", "outlier_row", "falling_row", "far_rows")


def _row_contracts(contracts: dict, where: Where, inputs: list[InputSpec], plan: bool) -> None:
    """The contracts that rewrite rows of one input must name a tensor input; far_rows (verify.py's
    `_far_rows_case`) one that is 2D with a named row count, outside a verify plan (the plan's calls would
    not carry the case's layout). A misspelt name would otherwise add no case and say nothing."""
    tensors = {i.name: i for i in inputs if not i.is_scalar}
    for key in ROW_CONTRACTS:
        name = contracts.get(key)
        if name is None:
            continue
        if name not in tensors:
            raise (where / key).fail("unknown-inputs", names=[name])
    name = contracts.get("far_rows")
    if name is None:
        return
    shape = tensors[name].shape or []
    if len(shape) != 2 or not str(shape[0]).isidentifier():
        raise (where / "far_rows").fail("far-rows-input", name=name, shape=shape)
    if plan:
        raise (where / "far_rows").fail("far-rows-plan", name=name)


def _verify_outputs(raw: dict, where: Where, inputs: list[InputSpec]) -> dict:
    """Several outputs, gradients and operator checks (lessons 11-12; engine/outputs.py does the work)."""
    mode = raw.get("mode", "values")
    if mode not in ("values", "grad"):
        raise (where / "mode").fail("unknown-choice", value=mode, allowed=["values", "grad"])
    for key in ("outputs", "grad_inputs"):
        for i, name in enumerate(raw.get(key) or []):
            if not IDENT.match(name):
                raise (where / key / i).fail("not-a-name")
    outputs = list(raw.get("outputs") or [])
    grad_inputs = list(raw.get("grad_inputs") or [])
    unknown = sorted(set(grad_inputs) - {i.name for i in inputs})
    if unknown:
        raise (where / "grad_inputs").fail("unknown-inputs", names=unknown)
    if mode == "grad" and not grad_inputs:
        raise (where / "grad_inputs").fail("empty")
    grad_output = raw.get("grad_output", "randn")
    if grad_output not in ("randn", "ones"):
        raise (where / "grad_output").fail("unknown-choice", value=grad_output, allowed=["randn", "ones"])
    known = set(outputs or ["out"]) | ({f"grad_{n}" for n in grad_inputs} if mode == "grad" else set())
    output_tolerance = raw.get("output_tolerance") or {}
    for out, table in output_tolerance.items():
        if out not in known:
            raise (where / "output_tolerance" / out).fail("not-an-output", value=out, allowed=sorted(known))
        for dtype, tol in table.items():
            _dtype(dtype, where / "output_tolerance" / out / dtype)
            if not tol:
                raise (where / "output_tolerance" / out / dtype).fail("tolerance-keys")
    for i, op in enumerate(raw.get("ops") or []):
        if "::" not in op:
            raise (where / "ops" / i).fail("op-name", value=op)
    return {
        "mode": mode,
        "outputs": outputs,
        "grad_inputs": grad_inputs,
        "grad_output": grad_output,
        "output_tolerance": output_tolerance,
        "deterministic": raw.get("deterministic", False),
        "ops": list(raw.get("ops") or []),
        "compile": raw.get("compile", False),
        "requires": _requires(raw, where),
        "hidden": _hidden(raw, where),
    }


def _requires(raw: dict, where: Where) -> list[str]:
    """verify.requires = ["tensor-descriptors"]: what the exercise needs to run at all (lesson 13)."""
    value = list(raw.get("requires") or [])
    for i, name in enumerate(value):
        if name not in REQUIREMENTS:
            raise (where / "requires" / i).fail("unknown-choice", value=name, allowed=list(REQUIREMENTS))
    return value


def _hidden(raw: dict, where: Where) -> dict:
    """verify.hidden = { interpreter = { M = [1, 40] }, gpu = { M = [1, 5000] } }: one random case per
    verify."""
    value = raw.get("hidden") or {}
    for backend, ranges in value.items():
        ok = (
            backend in ("interpreter", "gpu")
            and ranges
            and all(len(r) == 2 and 0 < r[0] <= r[1] for r in ranges.values())
        )
        if not ok:
            raise (where / "hidden" / backend).fail("hidden-range")
    return value


def _reject(raw: dict, where: Where, inputs: list[InputSpec], verify: VerifySpec) -> RejectCase:
    override = raw.get("override") or {}
    unknown = sorted(set(override) - {i.name for i in inputs})
    if unknown:
        raise (where / "override").fail("override-unknown", names=unknown)
    return RejectCase(
        name=raw["name"],
        why=raw.get("why") or {},
        params=raw.get("params") or verify.interpreter[0],
        dtype=_dtype(raw.get("dtype", verify.dtypes[0]), where / "dtype"),
        override=override,
    )


def _bench(raw: dict, where: Where, verify: VerifySpec) -> BenchSpec:
    for keyword, values in (raw.get("sweep") or {}).items():
        if not values:
            raise (where / "sweep" / keyword).fail("empty")
    timed = raw.get("timed", "forward")
    if timed not in ("forward", "backward"):
        raise (where / "timed").fail("unknown-choice", value=timed, allowed=["forward", "backward"])
    if timed == "backward" and not verify.grad_inputs:
        raise (where / "timed").fail("timed-needs-grads")
    return BenchSpec(
        sizes=raw.get("sizes") or verify.gpu,
        interpreter=raw.get("interpreter") or verify.interpreter[-1:],
        dtype=_dtype(raw.get("dtype", verify.dtypes[0]), where / "dtype"),
        bytes=raw.get("bytes"),
        flops=raw.get("flops"),
        baseline=raw.get("baseline"),
        sweep=raw.get("sweep") or {},
        naive=raw.get("naive", False),
        autotune=raw.get("autotune") or [],
        init={
            name: _init_call(text, where / "init" / name) for name, text in (raw.get("init") or {}).items()
        },
        timed=timed,
        compiled=raw.get("compiled", False),
    )


def _run(raw: dict, where: Where, verify: VerifySpec) -> RunSpec:
    show = raw.get("show", "values")
    if show not in ("values", "program-map"):
        raise (where / "show").fail("unknown-choice", value=show, allowed=["values", "program-map"])
    return RunSpec(
        params=raw.get("params") or verify.interpreter[0],
        dtype=_dtype(raw.get("dtype", verify.dtypes[0]), where / "dtype"),
        kwargs=raw.get("kwargs") or {},
        show=show,
    )
