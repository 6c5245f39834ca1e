"""Typed results: what crosses the door between the engine and the UI/CLI.

The worker still speaks JSON dicts on the wire (`protocol.py`); `Lab` turns them into these frozen
dataclasses, and `to_json()` gives back a dict with every key the worker sent (today's `--json` output), so
adding a field here never drops one there. Keys this module does not model yet travel in `extra` and come back
out unchanged.

No torch, no Textual: the UI imports this module.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar


class Kind(str, Enum):
    """Every error and diagnosis kind the engine reports. A `str` enum, so `Kind.OOB == "oob"` holds and JSON
    stays the plain string it always was.

    Each member knows three facts the UI acts on (see `points_at_line`, `restarts_worker`, `replayable`); its
    sentences live in `tritonlab.present.diagnoses`, never here."""

    # errors: the learner's code (or the worker) stopped
    SYNTAX = "syntax"
    COMPILE = "compile"
    RUNTIME = "runtime"
    TIMEOUT = "timeout"
    CRASH = "crash"
    OOB = "oob"
    CUDA_FAULT = "cuda-fault"
    CANCELLED = "cancelled"
    LOAD = "load"
    USAGE = "usage"
    VERIFY = "verify"  # bench refused to time a kernel that does not pass verify
    # diagnoses of an output compared with torch's (engine/diagnose.py)
    ERROR = "error"  # the comparison itself failed
    TYPE = "type"
    SHAPE = "shape"
    DTYPE = "dtype"
    UNWRITTEN = "unwritten"
    NAN = "nan"
    MISMATCH = "mismatch"
    # diagnoses of a verify case (engine/tasks/verify.py)
    NO_KERNEL_LAUNCHED = "no-kernel-launched"
    INPUT_MODIFIED = "input-modified"
    PERF_BYTES = "perf-bytes"
    WRONG_SHAPE = "wrong-shape"
    WRONG_DTYPE = "wrong-dtype"
    WRONG_DEVICE = "wrong-device"
    LESSON = "lesson"  # the lesson's own data is broken, not the learner's code
    VALIDATION = "validation"  # a reject case: the wrapper must refuse this input
    # verify did not run: the exercise needs a feature this backend/Triton lacks (verify.requires; neither
    # pass nor fail — `tritonlab check` accepts it for starter and solution alike)
    SKIPPED = "skipped"
    # contracts the lesson teaches (engine/contracts.py, [exercise.verify.contracts])
    GRID_SIZE = "grid-size"  # the learner's launch started a different number of programs than blocks
    OUTPUT_LAYOUT = "output-layout"  # the output is not row-major where the exercise promises it
    KNOB_IGNORED = "knob-ignored"  # a sweep keyword (BLOCK_SIZE, num_warps) never reached the launch
    KERNEL_BYPASSED = "kernel-bypassed"  # the kernel read a copy the wrapper made, not the input itself
    AUTOTUNE_KEY = "autotune-key"  # @triton.autotune with an empty key (or none of the shape arguments)
    AUTOTUNE_CONFIGS = "autotune-configs"  # too few GPU configs to choose from
    AUTOTUNE_MISSING = "autotune-missing"  # the exercise asks for @triton.autotune and the file has none
    KEYWORD_MISSING = "keyword-missing"  # the wrapper takes no parameter a case passes (bias=, activation=)
    LAUNCH_OPTION_PARAM = (
        "launch-option-param"  # a kernel parameter named num_warps/num_stages swallows the option
    )
    # notes (case["notes"]): said, never a failure
    TILES_NOT_VARIED = "tiles-not-varied"  # the wrapper takes no tile keywords: verified with its own tiles
    FAR_ROWS_CONTIGUOUS = (
        "far-rows-contiguous"  # too little GPU memory for the far-rows layout: rows contiguous
    )
    # output provenance and the judge (engine/tasks/verify.py, engine/judge.py)
    NOT_KERNEL_OUTPUT = "not-kernel-output"  # the returned memory was never an argument of a learner launch
    WRITTEN_AFTER_KERNEL = "written-after-kernel"  # changed after the last learner launch
    PARTLY_WRITTEN_BY_TORCH = "partly-written-by-torch"  # elements no learner kernel stored
    COPIED_ANSWER = "copied-answer"  # a kernel only copied an answer torch/numpy made in the wrapper
    PREFILLED_OUTPUT = "prefilled-output"  # the output held the answer before the first launch; loaded back
    TORCH_WORK = "torch-work"  # torch ran a reduction/product/activation/backward on an input's values
    RETURNED_INPUT = "returned-input"  # the wrapper returned one of its inputs, not a kernel's output
    NOT_A_PLAIN_TENSOR = "not-a-plain-tensor"  # a tensor subclass, or an output the judge cannot read
    TAMPERED = "tampered"  # foreign lines on the runner's result channel
    # gradient mode and registered operators (engine/outputs.py; lesson 12)
    WRONG_OUTPUTS = "wrong-outputs"  # the wrapper returned a different number of values than the outputs
    NO_GRADIENT = "no-gradient"  # the backward returned None for an input that needs a gradient
    NONDETERMINISTIC = "nondeterministic"  # two runs on the same inputs differ (a GPU check)
    OP_NOT_USED = "op-not-used"  # the exercise's torch.library operator was never called
    OP_NOT_YOURS = "op-not-yours"  # the operator that ran was registered by another file
    OP_MUTATES = "op-mutates"  # an operator changed a tensor argument its schema does not declare mutated
    OP_NOT_TRITON = "op-not-triton"  # the operator is a custom_op (or torch.library.define), not a triton_op
    GRAPH_BREAK = "graph-break"  # torch.compile(fullgraph=True) of the wrapper failed
    COMPILED_DIFFERS = "compiled-differs"  # the compiled wrapper's result differs from the eager one
    KERNEL_NOT_WRAPPED = "kernel-not-wrapped"  # a bare kernel[grid](...) inside an operator, not wrap_triton
    STORED_TWICE = "stored-twice"  # output elements stored by several programs (`store_once` contract)
    API_MISSING = "api-missing"  # the exercise's API (contract calls_any) is never called in the file
    ALLOCATOR_MISSING = "allocator-missing"  # device-side tensor descriptors without triton.set_allocator
    RACE = "race"  # programs of one launch load and store one element without atomics (lost updates on a GPU)
    CROSS_PROGRAM_READ = "cross-program-read"  # one program loads what another stores in the same launch
    LOOP_ONCE = "loop-once"  # contract loop: at the GPU's size one block covers the whole dimension
    ZERO_DIVISION = "zero-division"  # a case that matched torch, though the kernel divided an integer by 0

    @classmethod
    def parse(cls, value: Any) -> Kind | None:
        """The member for a wire string, or None for a kind this version does not know (a newer engine)."""
        if isinstance(value, Kind):
            return value
        try:
            return cls(value)
        except ValueError:
            return None

    @property
    def points_at_line(self) -> bool:
        """The editor marks the learner's line for this kind (when the engine found one)."""
        return self in _POINTS_AT_LINE

    @property
    def restarts_worker(self) -> bool:
        """The worker process was stopped or replaced: the UI says so and starts a fresh one."""
        return self in _RESTARTS_WORKER

    @property
    def replayable(self) -> bool:
        """A GPU result of this kind is replayed on the interpreter's bounds checker, which names the line."""
        return self in _REPLAYABLE

    @property
    def suspect(self) -> bool:
        """A wrong answer (or two runs that differ) that an out-of-bounds access or a race between programs
        can cause on a GPU: its exact small case is replayed on the interpreter too."""
        return self in _SUSPECT

    @property
    def is_error(self) -> bool:
        """An error kind (the run stopped), as opposed to a diagnosis of an output."""
        return self in _ERRORS


_ERRORS = frozenset(
    {
        Kind.SYNTAX,
        Kind.COMPILE,
        Kind.RUNTIME,
        Kind.TIMEOUT,
        Kind.CRASH,
        Kind.OOB,
        Kind.CUDA_FAULT,
        Kind.CANCELLED,
        Kind.LOAD,
        Kind.USAGE,
        Kind.VERIFY,
        Kind.TAMPERED,
    }
)
_POINTS_AT_LINE = frozenset(
    {Kind.SYNTAX, Kind.COMPILE, Kind.RUNTIME, Kind.OOB, Kind.TIMEOUT, Kind.CRASH, Kind.CUDA_FAULT}
)
_RESTARTS_WORKER = frozenset({Kind.TIMEOUT, Kind.CRASH, Kind.CUDA_FAULT})
_REPLAYABLE = frozenset({Kind.OOB, Kind.CUDA_FAULT})
_SUSPECT = frozenset({Kind.NAN, Kind.UNWRITTEN, Kind.MISMATCH, Kind.NONDETERMINISTIC})

#: The kinds the worker's protocol module used to list (kept for callers that validate an error kind).
ERROR_KINDS = tuple(k.value for k in Kind if k.is_error)


def kind_of(value: Any) -> Kind | None:
    """`Kind.parse` for a dict or a dataclass with a `kind`, or a bare string."""
    if isinstance(value, dict):
        value = value.get("kind")
    elif hasattr(value, "kind"):
        value = value.kind
    return Kind.parse(value)


# ------------------------------------------------------------------------------------------------------------
# The records. Each is frozen; `from_json` accepts any dict the engine sent (unknown keys go to `extra`) and
# `to_json` gives it back with the modelled fields first.


@dataclass(frozen=True)
class _Record:
    """Shared JSON round-trip: declared fields ↔ keys of the same name; the rest in `extra`."""

    extra: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)
    #: the modelled keys the engine actually sent: to_json writes those (even when null) and any field set
    #: since
    sent: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    _NESTED: ClassVar[dict[str, Any]] = {}  # field name → (record class, "one" | "many")

    @classmethod
    def _names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls) if f.name not in ("extra", "sent")]

    @classmethod
    def from_json(cls, data: dict | None):
        data = dict(data or {})
        values: dict[str, Any] = {}
        for name in cls._names():
            if name not in data:
                continue
            value = data.pop(name)
            nested = cls._NESTED.get(name)
            if nested and value is not None:
                record, how = nested
                value = (
                    tuple(record.from_json(v) for v in value if isinstance(v, dict))
                    if how == "many"
                    else record.from_json(value)
                    if isinstance(value, dict)
                    else value
                )
            values[name] = value
        return cls(extra=data, sent=frozenset(values), **values)

    def to_json(self) -> dict:
        out: dict[str, Any] = {}
        for name in self._names():
            value = getattr(self, name)
            if isinstance(value, _Record):
                value = value.to_json()
            elif isinstance(value, tuple) and value and isinstance(value[0], _Record):
                value = [v.to_json() for v in value]
            elif isinstance(value, tuple) and name in self._NESTED:
                value = list(value)
            elif isinstance(value, Kind):
                value = value.value
            if name in self.sent or value not in (None, (), []):
                out[name] = value
        out.update(self.extra)
        return out

    def get(self, key: str, default: Any = None) -> Any:
        """Dict-style read of any key, modelled or not: lets dict code read a record while it migrates."""
        if key in self._names():
            value = getattr(self, key)
            return default if value is None else value
        return self.extra.get(key, default)


@dataclass(frozen=True)
class Diagnosis(_Record):
    """One fact about a wrong output or a failed case. Everything a sentence needs is a field; `message` is
    the engine's old English text, kept on the wire for `--json` readers and never shown by the
    presenters."""

    kind: str = ""
    line: int | None = None
    arg: str | None = None
    count: int | None = None
    ranges: list | None = None
    rows: list | None = None
    cols: list | None = None
    programs: list | None = None
    got: Any = None
    expected: Any = None
    message: str | None = None

    @property
    def known(self) -> Kind | None:
        return Kind.parse(self.kind)


@dataclass(frozen=True)
class Error(_Record):
    """Why a request stopped: kind, the learner's line when found, and the facts of that kind."""

    kind: str = ""
    line: int | None = None
    message: str | None = None
    case: str | None = None
    signal: str | None = None
    exit_code: int | None = None
    stderr_tail: str | None = None
    traceback: str | None = None

    @property
    def known(self) -> Kind | None:
        return Kind.parse(self.kind)


@dataclass(frozen=True)
class Case(_Record):
    name: str = ""
    passed: bool = False
    params: dict | None = None
    dtype: str | None = None
    seed: int | None = None
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    mismatches: int | None = None
    diagnoses: tuple[Diagnosis, ...] = ()
    error: Error | None = None
    first: list | None = None
    map: str | None = None

    _NESTED: ClassVar[dict[str, Any]] = {"diagnoses": (Diagnosis, "many"), "error": (Error, "one")}


@dataclass(frozen=True)
class _Result(_Record):
    backend: str | None = None
    error: Error | None = None
    output: str | None = None
    elapsed_s: float | None = None

    @property
    def stopped(self) -> bool:
        """The request ended in an error (compile, crash, timeout, …) rather than a verdict."""
        return self.error is not None


@dataclass(frozen=True)
class VerifyResult(_Result):
    exercise: str | None = None
    passed: bool = False
    cases: tuple[Case, ...] = ()
    summary: str | None = None
    replay: dict | None = None
    file: str | None = None
    #: the interpreter audit of a GPU pass: {"state": "pending"} from `Lab.verify(audit="later")`, then
    #: {"state": "clean" | "found" | "incomplete"} from `Lab.audit`; None when no audit applies
    audit: dict | None = None

    _NESTED: ClassVar[dict[str, Any]] = {"cases": (Case, "many"), "error": (Error, "one")}

    def first_failure(self) -> Case | None:
        return next((c for c in self.cases if not c.passed), None)


@dataclass(frozen=True)
class RunResult(_Result):
    lines: list | None = None

    _NESTED: ClassVar[dict[str, Any]] = {"error": (Error, "one")}


@dataclass(frozen=True)
class BenchResult(_Result):
    verified: bool | None = None
    lines: list | None = None

    _NESTED: ClassVar[dict[str, Any]] = {"error": (Error, "one")}


@dataclass(frozen=True)
class ProfileResult(_Result):
    verified: bool | None = None
    method: str | None = None  # "torch.profiler", "cuda-events" or "interpreter"
    kernels: list | None = None
    launches: list | None = None

    _NESTED: ClassVar[dict[str, Any]] = {"error": (Error, "one")}


@dataclass(frozen=True)
class IrResult(_Result):
    stage: str | None = None
    text: str | None = None
    header: list | None = None

    _NESTED: ClassVar[dict[str, Any]] = {"error": (Error, "one")}


@dataclass(frozen=True)
class DoctorResult(_Result):
    ok: bool = False
    checks: list | None = None
    worker: dict | None = None

    _NESTED: ClassVar[dict[str, Any]] = {"error": (Error, "one")}
