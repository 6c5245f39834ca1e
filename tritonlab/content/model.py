"""The lesson/exercise model. Plain data: no torch, no Textual."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

LANGS = ("en", "ja")
DTYPES = ("float32", "float16", "bfloat16", "float64", "int32", "int64", "int8", "uint8", "bool")
INITS = ("randn", "rand", "randint", "arange", "ones", "zeros", "large")
LAYOUTS = ("contiguous", "transposed", "sliced", "offset")
#: verify.requires names (tritonlab/engine/features.py probes them in the worker; unmet ones skip verify with
#: why)
REQUIREMENTS = ("gpu", "tensor-descriptors", "host-descriptors", "warp-specialize")


def tr(text: dict[str, str] | str | None, lang: str) -> str:
    """Pick one language from an {en, ja} table, falling back to English."""
    if text is None:
        return ""
    if isinstance(text, str):
        return text
    return text.get(lang) or text.get("en") or next(iter(text.values()), "")


@dataclass
class Problem:
    """A lesson file that cannot be used, as facts: where, a code, and the values its sentence needs.

    The sentence is made by `text(lang)` from the en/ja table in content/problems.py; `message` is the English
    one."""

    path: Path
    line: int | None
    code: str
    values: dict = field(default_factory=dict)

    def text(self, lang: str = "en") -> str:
        from tritonlab.content.problems import render

        return render(self.code, self.values, lang)

    @property
    def message(self) -> str:
        return self.text("en")

    def located(self, lang: str = "en") -> str:
        """`path:line: sentence` (line 1 when the problem concerns the whole file)."""
        return f"{self.path}:{self.line or 1}: {self.text(lang)}"

    def __str__(self) -> str:
        return self.located("en")

    def to_dict(self, lang: str = "en") -> dict:
        return {
            "path": str(self.path),
            "line": self.line,
            "code": self.code,
            "values": self.values,
            "message": self.text(lang),
        }


@dataclass
class InputSpec:
    name: str
    shape: list | None = None  # list of ints or expressions over case params; None for a scalar
    value: str | int | float | None = None  # scalar argument expression
    init: str = "randn"
    init_args: tuple = ()
    scale: float = 1.0
    dtype: str = "case"
    layout: str = "contiguous"
    bench_layout: str = "contiguous"  # the layout bench times (verify may use a harder one)
    # optional: left out of every call unless a variant's "@with" (or a reject's override) names it, and then
    # passed by keyword (`bias=...`); the reference sees None where it was not passed
    optional: bool = False

    @property
    def is_scalar(self) -> bool:
        return self.shape is None

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "shape": self.shape,
            "value": self.value,
            "init": self.init,
            "init_args": list(self.init_args),
            "scale": self.scale,
            "dtype": self.dtype,
            "layout": self.layout,
            "bench_layout": self.bench_layout,
            "optional": self.optional,
        }


@dataclass
class RejectCase:
    name: str
    why: dict
    params: dict
    dtype: str
    override: dict


@dataclass
class VerifySpec:
    dtypes: list[str]
    seeds: list[int]
    interpreter: list[dict]
    gpu: list[dict]
    variants: list[dict] = field(default_factory=lambda: [{}])
    tolerance: dict = field(default_factory=dict)
    # a reduction's own rounding: atol is at least sum_rounding × eps(float32) × the reference evaluated on
    # |inputs| in float64 (for a sum: Σ|x|), so any summation order passes and a missing term does not
    sum_rounding: float | None = None
    output: str = "tensor"
    bytes_budget: str | None = None
    # Several outputs, gradients, operators (engine/outputs.py; docs/lesson-format.md, "Several outputs")
    mode: str = "values"  # values | grad
    outputs: list[str] = field(default_factory=list)
    grad_inputs: list[str] = field(default_factory=list)
    grad_output: str = "randn"
    output_tolerance: dict = field(default_factory=dict)
    deterministic: bool = False
    ops: list[str] = field(default_factory=list)
    compile: bool = False
    # Lessons 13-14: features the exercise needs (REQUIREMENTS); unmet → verify is skipped with the reason
    requires: list[str] = field(default_factory=list)
    # Hidden random cases: per backend, param -> [low, high]; one case per verify, sizes and seed drawn at
    # random
    hidden: dict = field(default_factory=dict)
    contracts: dict = field(
        default_factory=dict
    )  # [exercise.verify.contracts]: checked by engine/contracts.py


@dataclass
class BenchSpec:
    sizes: list[dict]
    interpreter: list[dict]
    dtype: str = "float32"
    bytes: str | None = None
    flops: str | None = None
    baseline: str | None = None
    sweep: dict = field(default_factory=dict)
    naive: bool = False
    autotune: list[dict] = field(default_factory=list)
    # input name -> (init, init_args) for the timed data; inputs not named here are timed on randn (scale 1),
    # never on verify's adversarial values (those can push torch onto a slow path, e.g. softmax on integers)
    init: dict = field(default_factory=dict)
    # "forward": time the wrapper; "backward": run it once on inputs that need gradients (verify.grad_inputs),
    # then time one backward pass of that graph (y.backward(dy), retain_graph) against the baseline's
    timed: str = "forward"
    # also time torch.compile of the baseline expression (GPU only): the bar a capstone solution should clear
    compiled: bool = False


@dataclass
class RunSpec:
    params: dict
    dtype: str = "float32"
    kwargs: dict = field(default_factory=dict)
    show: str = "values"


@dataclass
class Exercise:
    lesson_id: str
    id: str
    title: dict
    starter: Path
    solution: Path
    entry: str
    reference: str
    outcomes: list[str]
    hints: list[dict]
    inputs: list[InputSpec]
    verify: VerifySpec
    rejects: list[RejectCase] = field(default_factory=list)
    bench: BenchSpec | None = None
    run: RunSpec | None = None
    expect_kernel: bool = True
    #: exception classes a reject case must be refused with (their subclasses too); empty: any refusal
    #: that is not a bug in the check itself (NameError, AttributeError, ...)
    refuse_with: list[str] = field(default_factory=list)
    line: int | None = None

    @property
    def key(self) -> str:
        return f"{self.lesson_id}/{self.id}"


@dataclass
class Choice:
    text: dict
    correct: bool
    explain: dict


@dataclass
class Question:
    id: str
    outcomes: list[str]
    prompt: dict
    choices: list[Choice]


@dataclass
class Outcome:
    id: str
    sections: dict  # lang -> list of heading titles
    activities: list[str]


@dataclass
class Lesson:
    id: str  # folder name, e.g. "05-vector-add"
    number: int
    path: Path
    title: dict
    summary: dict
    texts: dict  # lang -> Path
    outcomes: list[Outcome]
    exercises: list[Exercise]
    quiz: list[Question] = field(default_factory=list)
    number_line: int | None = None  # where `number =` is written, to point a duplicate number at it

    def text(self, lang: str) -> str:
        path = self.texts.get(lang) or self.texts.get("en")
        try:
            return path.read_text(encoding="utf-8") if path else ""
        except (OSError, UnicodeDecodeError):  # checked at load; the file may have changed since
            return ""

    def exercise(self, exercise_id: str) -> Exercise | None:
        return next((e for e in self.exercises if e.id == exercise_id), None)
