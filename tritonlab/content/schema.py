"""The known keys and value types of lesson.toml and quiz.toml.

Checked before anything is built, so a typo'd key or a value of the wrong kind is a `path:line` problem
instead of being silently dropped or crashing a later `.get(...)[0]`. The semantic rules (a dtype exists, a
file is there) stay in the parsers, which can then trust the shapes they are given."""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from tritonlab.content.model import Problem
from tritonlab.content.toml_source import KeyLines

#: How many problems one file reports at most: the first few are what an author fixes first.
MAX_PROBLEMS = 12


@dataclass(frozen=True)
class Scalar:
    name: str  # a key of problems.TYPES
    accepts: Callable[[object], bool]
    blank_ok: bool = True  # False: text that is empty or only spaces is a problem (a title, a prompt)


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


TEXT = Scalar("text", lambda v: isinstance(v, str))
INT = Scalar("integer", _is_int)
NUMBER = Scalar("number", lambda v: _is_int(v) or isinstance(v, float))
BOOL = Scalar("bool", lambda v: isinstance(v, bool))
INT_OR_TEXT = Scalar("integer or text", lambda v: _is_int(v) or isinstance(v, str))
VALUE = Scalar("value", lambda v: isinstance(v, (int, float, str, bool)))


@dataclass(frozen=True)
class ListOf:
    item: object
    name: str = "list"


@dataclass(frozen=True)
class Table:
    fields: dict = field(default_factory=dict)
    required: tuple = ()
    extra: object | None = (
        None  # the spec of keys chosen by the author (input names, outcome ids, case params)
    )
    name: str = "table"


def type_name(value) -> str:
    if isinstance(value, dict):
        return "table"
    if isinstance(value, list):
        return "list"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (datetime.date, datetime.time)):
        return "date"
    return type(value).__name__


WORDS = Scalar("text", lambda v: isinstance(v, str), blank_ok=False)
LANG = Table({"en": WORDS, "ja": WORDS}, required=("en", "ja"))
CASE = Table(extra=VALUE)  # { n = 1025, BLOCK = 128 }: parameter names are the author's
# a wrapper keyword per run: a value, or a table of them (`config = { BLOCK_K = 64, ... }` for a config dict);
# "@with" lists the optional inputs the run passes (by keyword)
VARIANT = Table(
    {"@with": ListOf(WORDS)},
    extra=Scalar(
        "value or table",
        lambda v: VALUE.accepts(v) or (isinstance(v, dict) and all(VALUE.accepts(x) for x in v.values())),
    ),
)

INPUT = Table(
    {
        "shape": ListOf(INT_OR_TEXT),
        "value": VALUE,
        "init": TEXT,
        "scale": NUMBER,
        "dtype": TEXT,
        "layout": TEXT,
        "bench_layout": TEXT,
        "optional": BOOL,
    }
)
VERIFY = Table(
    {
        "dtypes": ListOf(TEXT),
        "seeds": ListOf(INT),
        "interpreter": ListOf(CASE),
        "gpu": ListOf(CASE),
        "variants": ListOf(VARIANT),
        "tolerance": Table(extra=Table({"atol": NUMBER, "rtol": NUMBER})),
        # a sum's rounding: atol >= this · eps(float32) · reference(|inputs|) (docs/lesson-format.md)
        "sum_rounding": NUMBER,
        "output": TEXT,
        "bytes_budget": TEXT,
        # several outputs, gradients and operator checks (engine/outputs.py)
        "mode": TEXT,
        "outputs": ListOf(TEXT),
        "grad_inputs": ListOf(TEXT),
        "grad_output": TEXT,
        "output_tolerance": Table(extra=Table(extra=Table({"atol": NUMBER, "rtol": NUMBER}))),
        "deterministic": BOOL,
        "ops": ListOf(TEXT),
        "compile": BOOL,
        # lessons 13-14: features the exercise needs; random sizes from ranges (docs/lesson-format.md)
        "requires": ListOf(TEXT),
        "hidden": Table(extra=Table(extra=ListOf(INT))),
        # contracts the lesson teaches, checked from the recorded launches (engine/contracts.py)
        "contracts": Table(
            {
                "programs": TEXT,
                "knobs": ListOf(TEXT),
                "output_layout": TEXT,
                "tiles_over": TEXT,
                "input_storage": ListOf(TEXT),
                "zero_row": TEXT,
                "low_row": TEXT,
                "high_row": TEXT,
                "outlier_row": TEXT,
                "falling_row": TEXT,
                "far_rows": TEXT,
                "store_once": BOOL,
                "loop": ListOf(TEXT),
                "scale": ListOf(TEXT),
                "log_term": TEXT,
                "log_max": TEXT,
                "torch_ops": ListOf(TEXT),
                "kernel_grads": ListOf(TEXT),
                "calls_any": ListOf(TEXT),
                "autotune": Table(
                    {
                        "configs_function": TEXT,
                        "min_configs": INT,
                        "key_any": ListOf(TEXT),
                        "key_all": ListOf(TEXT),
                    }
                ),
            }
        ),
    },
    required=("interpreter",),
)
OVERRIDE = Table(
    {"shape": ListOf(INT_OR_TEXT), "dtype": TEXT, "layout": TEXT, "device": TEXT, "value": VALUE}
)
REJECT = Table(
    {"name": TEXT, "why": LANG, "params": CASE, "dtype": TEXT, "override": Table(extra=OVERRIDE)},
    required=("name",),
)
BENCH = Table(
    {
        "sizes": ListOf(CASE),
        "interpreter": ListOf(CASE),
        "dtype": TEXT,
        "bytes": TEXT,
        "flops": TEXT,
        "baseline": TEXT,
        "sweep": Table(extra=ListOf(VALUE)),
        "naive": BOOL,
        "autotune": ListOf(CASE),
        "init": Table(extra=TEXT),
        "timed": TEXT,
        "compiled": BOOL,
    }
)
RUN = Table({"params": CASE, "dtype": TEXT, "kwargs": Table(extra=VALUE), "show": TEXT})
EXERCISE = Table(
    {
        "id": TEXT,
        "title": LANG,
        "starter": TEXT,
        "solution": TEXT,
        "entry": TEXT,
        "reference": TEXT,
        "outcomes": ListOf(TEXT),
        "hints": ListOf(LANG),
        "expect_kernel": BOOL,
        "refuse_with": ListOf(TEXT),
        "inputs": Table(extra=INPUT),
        "verify": VERIFY,
        "reject": ListOf(REJECT),
        "bench": BENCH,
        "run": RUN,
    },
    required=("id", "title", "starter", "solution", "entry", "reference", "verify"),
)
OUTCOME = Table(
    {"sections": Table({"en": ListOf(TEXT), "ja": ListOf(TEXT)}), "activities": ListOf(TEXT)},
    required=("sections", "activities"),
)
LESSON = Table(
    {
        "format": INT,
        "number": INT,
        "title": LANG,
        "summary": LANG,
        "outcomes": Table(extra=OUTCOME),
        "exercise": ListOf(EXERCISE),
    },
    required=("format", "number", "title"),
)
CHOICE = Table({"text": LANG, "correct": BOOL, "explain": LANG}, required=("text",))
QUESTION = Table(
    {"id": TEXT, "outcomes": ListOf(TEXT), "prompt": LANG, "choice": ListOf(CHOICE)},
    required=("id", "prompt", "choice"),
)
QUIZ = Table({"question": ListOf(QUESTION)})


def shown_key(path: tuple, data: dict) -> str:
    """A key path as an author reads it: `exercise[add].verify.dtypes`, `question[q1].choice[2]` (0-based).

    An entry of a list of tables is named by its id (or name) when it has one: indices shift when entries
    move."""
    text = ""
    node: object = data
    for part in path:
        if isinstance(part, int):
            entry = node[part] if isinstance(node, list) and part < len(node) else None
            label = (entry.get("id") or entry.get("name")) if isinstance(entry, dict) else None
            text += f"[{label}]" if isinstance(label, str) and label else f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
        node = node[part] if isinstance(node, (dict, list)) and _has(node, part) else None
    return text


def _has(node: dict | list, part) -> bool:
    return part in node if isinstance(node, dict) else isinstance(part, int) and 0 <= part < len(node)


def check(data: dict, spec: Table, path: Path, lines: KeyLines) -> list[Problem]:
    """Every unknown key, wrong type and missing required key in `data`, each with its line."""
    problems = []
    for problem in _walk(data, spec, (), data, path, lines):
        problems.append(problem)
        if len(problems) >= MAX_PROBLEMS:
            break
    return problems


def _walk(value, spec, at: tuple, root: dict, path: Path, lines: KeyLines) -> Iterator[Problem]:
    def problem(code: str, where: tuple, **values) -> Problem:
        return Problem(
            path, lines.line_of(where), code, {"key": shown_key(where, root) or "(file)", **values}
        )

    if isinstance(spec, Scalar):
        if not spec.accepts(value):
            yield problem("wrong-type", at, expected=spec.name, found=type_name(value))
        elif not spec.blank_ok and not value.strip():
            yield problem("blank-text", at)
        return
    if isinstance(spec, ListOf):
        if not isinstance(value, list):
            yield problem("wrong-type", at, expected="list", found=type_name(value))
            return
        for index, item in enumerate(value):
            yield from _walk(item, spec.item, (*at, index), root, path, lines)
        return
    if not isinstance(value, dict):
        yield problem("wrong-type", at, expected="table", found=type_name(value))
        return
    for key, item in value.items():
        item_spec = spec.fields.get(key, spec.extra)
        if item_spec is None:
            yield problem("unknown-key", (*at, key), known=sorted(spec.fields))
            continue
        yield from _walk(item, item_spec, (*at, key), root, path, lines)
    for key in spec.required:  # after the unknown keys: a typo'd key is the cause of its "missing" twin
        if key not in value:
            yield problem("missing-key", (*at, key))
