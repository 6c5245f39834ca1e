"""Loads and validates lessons. A broken lesson is reported as `path:line: message` and skipped."""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from tritonlab import paths
from tritonlab.content.model import (
    DTYPES,
    INITS,
    LANGS,
    LAYOUTS,
    REQUIREMENTS,
    BenchSpec,
    Choice,
    Exercise,
    InputSpec,
    Lesson,
    Outcome,
    Problem,
    Question,
    RejectCase,
    RunSpec,
    VerifySpec,
)

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

FORMAT = 1
_FOLDER = re.compile(r"^(\d{2})-[a-z0-9][a-z0-9-]*$")
_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_TOML_LINE = re.compile(r"at line (\d+)")


class LessonError(Exception):
    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


@dataclass
class Catalog:
    lessons: list[Lesson] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def lesson(self, ref: str | int) -> Lesson | None:
        ref = str(ref).strip().strip("/")
        for lesson in self.lessons:
            if ref == lesson.id or (ref.isdigit() and int(ref) == lesson.number):
                return lesson
            if ref == lesson.id.split("-", 1)[1]:
                return lesson
        return None

    def exercise(self, ref: str) -> Exercise:
        """Resolve `LESSON[/EXERCISE]`: LESSON is a number (5, 05), a folder name or its slug."""
        lesson_ref, _, exercise_ref = str(ref).strip().partition("/")
        lesson = self.lesson(lesson_ref)
        if lesson is None:
            known = ", ".join(f"{les.number}" for les in self.lessons)
            raise KeyError(f"no lesson {lesson_ref!r} (lessons: {known or 'none loaded'})")
        if not exercise_ref:
            if not lesson.exercises:
                raise KeyError(f"lesson {lesson.id} has no exercises")
            return lesson.exercises[0]
        found = lesson.exercise(exercise_ref)
        if found is None and exercise_ref.isdigit() and 1 <= int(exercise_ref) <= len(lesson.exercises):
            found = lesson.exercises[int(exercise_ref) - 1]
        if found is None:
            known = ", ".join(e.id for e in lesson.exercises)
            raise KeyError(f"lesson {lesson.id} has no exercise {exercise_ref!r} (exercises: {known})")
        return found

    def all_exercises(self) -> list[Exercise]:
        return [e for lesson in self.lessons for e in lesson.exercises]


def load_catalog(lessons_root: Path | None = None, kernels_root: Path | None = None) -> Catalog:
    lessons_root = Path(lessons_root or paths.lessons_dir())
    kernels_root = Path(kernels_root or paths.kernels_dir())
    catalog = Catalog()
    if not lessons_root.is_dir():
        catalog.problems.append(Problem(lessons_root, None, "lessons folder not found"))
        return catalog
    for folder in sorted(p for p in lessons_root.iterdir() if p.is_dir()):
        if folder.name.startswith((".", "_")):
            continue
        try:
            catalog.lessons.append(load_lesson(folder, kernels_root))
        except LessonError as exc:
            target = folder / "lesson.toml" if (folder / "lesson.toml").exists() else folder
            if getattr(exc, "path", None):
                target = exc.path
            catalog.problems.append(Problem(target, exc.line, str(exc)))
    catalog.lessons.sort(key=lambda les: les.number)
    return catalog


class _Doc:
    """The raw TOML text, to point errors at lines."""

    def __init__(self, text: str):
        self.lines = text.splitlines()
        self.exercise_lines = [i + 1 for i, ln in enumerate(self.lines) if ln.strip().startswith("[[exercise]]")]

    def line_of(self, key: str, after: int = 0) -> int | None:
        pattern = re.compile(rf"(^|[\s{{,.\[]){re.escape(key)}\s*[=\].]")
        for i in range(max(after - 1, 0), len(self.lines)):
            if pattern.search(self.lines[i]):
                return i + 1
        return after or None


def _read_toml(path: Path) -> tuple[dict, str]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise LessonError(f"cannot read: {exc.strerror}") from exc
    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        match = _TOML_LINE.search(str(exc))
        err = LessonError(f"invalid TOML: {exc}", int(match.group(1)) if match else None)
        err.path = path
        raise err from exc


def _lang_table(value, what: str, line: int | None, required=LANGS) -> dict:
    if not isinstance(value, dict):
        raise LessonError(f"{what} must be a table with {' and '.join(required)} keys", line)
    for lang in required:
        if not isinstance(value.get(lang), str) or not value[lang].strip():
            raise LessonError(f"{what} is missing its {lang!r} text", line)
    return value


def load_lesson(folder: Path, kernels_root: Path) -> Lesson:
    match = _FOLDER.match(folder.name)
    if not match:
        raise LessonError("lesson folder names look like NN-slug (two digits, lowercase words)")
    meta_path = folder / "lesson.toml"
    if not meta_path.is_file():
        raise LessonError("missing lesson.toml")
    data, text = _read_toml(meta_path)
    doc = _Doc(text)
    if data.get("format") != FORMAT:
        raise LessonError(f"format must be {FORMAT} (found {data.get('format')!r})", doc.line_of("format"))
    number = data.get("number")
    if number != int(match.group(1)):
        raise LessonError(f"number {number!r} does not match the folder {folder.name}", doc.line_of("number"))
    title = _lang_table(data.get("title"), "title", doc.line_of("title"))
    summary = data.get("summary") or {}
    texts = {}
    for lang in LANGS:
        path = folder / f"text.{lang}.md"
        if not path.is_file():
            raise LessonError(f"missing text.{lang}.md")
        texts[lang] = path

    outcomes = []
    for oid, spec in (data.get("outcomes") or {}).items():
        line = doc.line_of(f'"{oid}"')
        if not re.match(r"^L\d+\.\d+$", oid):
            raise LessonError(f"outcome id {oid!r} should look like L{number}.1", line)
        if not isinstance(spec, dict):
            raise LessonError(f"outcome {oid} must be a table", line)
        sections = spec.get("sections") or {}
        activities = spec.get("activities") or []
        if not isinstance(sections, dict) or not isinstance(activities, list):
            raise LessonError(f"outcome {oid}: sections is a table of lists, activities a list", line)
        outcomes.append(Outcome(oid, sections, [str(a) for a in activities]))

    exercises = []
    raw_exercises = data.get("exercise") or []
    if not isinstance(raw_exercises, list):
        raise LessonError("exercises are written [[exercise]]", doc.line_of("exercise"))
    seen = set()
    for index, raw in enumerate(raw_exercises):
        start = doc.exercise_lines[index] if index < len(doc.exercise_lines) else None
        exercise = _exercise(raw, folder, kernels_root, doc, start)
        if exercise.id in seen:
            raise LessonError(f"duplicate exercise id {exercise.id!r}", start)
        seen.add(exercise.id)
        exercises.append(exercise)

    quiz = []
    quiz_path = folder / "quiz.toml"
    if quiz_path.is_file():
        quiz = _quiz(quiz_path)

    return Lesson(
        id=folder.name,
        number=number,
        path=folder,
        title=title,
        summary=summary if isinstance(summary, dict) else {},
        texts=texts,
        outcomes=outcomes,
        exercises=exercises,
        quiz=quiz,
    )


def _cases(value, what: str, line) -> list[dict]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(c, dict) for c in value):
        raise LessonError(f"{what} must be a list of tables such as [{{ n = 1 }}]", line)
    return value


def _dtype(value, what: str, line, allow_case=False) -> str:
    if allow_case and value == "case":
        return value
    if value not in DTYPES:
        raise LessonError(f"{what}: unknown dtype {value!r} (one of {', '.join(DTYPES)})", line)
    return value


def _exercise(raw: dict, folder: Path, kernels_root: Path, doc: _Doc, start: int | None) -> Exercise:
    def line(key: str) -> int | None:
        return doc.line_of(key, start or 0)

    if not isinstance(raw, dict):
        raise LessonError("an [[exercise]] must be a table", start)
    eid = raw.get("id")
    if not isinstance(eid, str) or not _ID.match(eid):
        raise LessonError(f"exercise id {eid!r} must be lowercase letters, digits and dashes", line("id"))
    for key in ("starter", "solution", "entry", "reference"):
        if not isinstance(raw.get(key), str) or not raw[key].strip():
            raise LessonError(f"exercise {eid}: {key} is required", start)
    starter = folder / raw["starter"]
    if not starter.is_file():
        raise LessonError(f"exercise {eid}: starter {raw['starter']} not found in {folder.name}/", line("starter"))
    solution = kernels_root / raw["solution"]
    if not solution.is_file():
        raise LessonError(f"exercise {eid}: solution {raw['solution']} not found in kernels/", line("solution"))
    if not _IDENT.match(raw["entry"]):
        raise LessonError(f"exercise {eid}: entry must be a Python name", line("entry"))
    try:
        compile(raw["reference"], "<reference>", "eval")
    except SyntaxError as exc:
        raise LessonError(f"exercise {eid}: reference is not a Python expression: {exc.msg}", line("reference"))
    hints = raw.get("hints") or []
    if not isinstance(hints, list) or not all(isinstance(h, dict) for h in hints):
        raise LessonError(f"exercise {eid}: hints must be a list of {{ en, ja }} tables", line("hints"))

    inputs = []
    for name, spec in (raw.get("inputs") or {}).items():
        inputs.append(_input(eid, name, spec, line(name)))

    vraw = raw.get("verify")
    if not isinstance(vraw, dict):
        raise LessonError(f"exercise {eid}: [exercise.verify] is required", start)
    vline = line("verify")
    dtypes = [_dtype(d, f"exercise {eid}: verify.dtypes", line("dtypes")) for d in vraw.get("dtypes", ["float32"])]
    seeds = vraw.get("seeds", [0])
    if not isinstance(seeds, list) or not all(isinstance(s, int) for s in seeds) or not seeds:
        raise LessonError(f"exercise {eid}: verify.seeds must be a list of integers", vline)
    interp = _cases(vraw.get("interpreter"), f"exercise {eid}: verify.interpreter", line("interpreter"))
    if not interp:
        raise LessonError(f"exercise {eid}: verify.interpreter needs at least one case", line("interpreter"))
    gpu = _cases(vraw.get("gpu"), f"exercise {eid}: verify.gpu", vline) or interp
    variants = _cases(vraw.get("variants"), f"exercise {eid}: verify.variants", vline) or [{}]
    tolerance = vraw.get("tolerance") or {}
    for dt, tol in tolerance.items():
        _dtype(dt, f"exercise {eid}: verify.tolerance", vline)
        if not isinstance(tol, dict) or not set(tol) <= {"atol", "rtol"}:
            raise LessonError(f"exercise {eid}: tolerance.{dt} must be {{ atol = …, rtol = … }}", vline)
    output = vraw.get("output", "tensor")
    if output != "tensor" and not (
        isinstance(output, str) and output.startswith("inplace:") and output[8:] in {i.name for i in inputs}
    ):
        raise LessonError(f"exercise {eid}: verify.output must be 'tensor' or 'inplace:<input name>'", vline)
    verify = VerifySpec(
        dtypes=dtypes,
        seeds=seeds,
        interpreter=interp,
        gpu=gpu,
        variants=variants,
        tolerance=tolerance,
        output=output,
        bytes_budget=vraw.get("bytes_budget"),
        **_verify_extras(eid, vraw, inputs, dtypes, vline),
    )

    rejects = []
    for rj in raw.get("reject") or []:
        if not isinstance(rj, dict) or not isinstance(rj.get("name"), str):
            raise LessonError(f"exercise {eid}: each [[exercise.reject]] needs a name", line("reject"))
        override = rj.get("override") or {}
        unknown = set(override) - {i.name for i in inputs}
        if unknown:
            raise LessonError(f"exercise {eid}: reject {rj['name']!r} overrides unknown inputs {sorted(unknown)}",
                              line("reject"))
        rejects.append(RejectCase(
            name=rj["name"],
            why=rj.get("why") or {},
            params=rj.get("params") or (interp[0] if interp else {}),
            dtype=_dtype(rj.get("dtype", dtypes[0]), f"exercise {eid}: reject dtype", line("reject")),
            override=override,
        ))

    bench = None
    braw = raw.get("bench")
    if braw is not None:
        if not isinstance(braw, dict):
            raise LessonError(f"exercise {eid}: bench must be a table", line("bench"))
        bline = line("bench")
        sweep = braw.get("sweep") or {}
        if not isinstance(sweep, dict) or not all(isinstance(v, list) and v for v in sweep.values()):
            raise LessonError(f"exercise {eid}: bench.sweep maps a keyword to a list of values", bline)
        bench = BenchSpec(
            sizes=_cases(braw.get("sizes"), f"exercise {eid}: bench.sizes", bline) or gpu,
            interpreter=_cases(braw.get("interpreter"), f"exercise {eid}: bench.interpreter", bline) or interp[-1:],
            dtype=_dtype(braw.get("dtype", dtypes[0]), f"exercise {eid}: bench.dtype", bline),
            bytes=braw.get("bytes"),
            flops=braw.get("flops"),
            baseline=braw.get("baseline"),
            sweep=sweep,
            naive=bool(braw.get("naive", False)),
            autotune=_cases(braw.get("autotune"), f"exercise {eid}: bench.autotune", bline),
            init=_bench_init(braw.get("init") or {}, eid, bline),
        )

    run = None
    rraw = raw.get("run")
    if rraw is not None:
        if not isinstance(rraw, dict):
            raise LessonError(f"exercise {eid}: run must be a table", line("run"))
        show = rraw.get("show", "values")
        if show not in ("values", "program-map"):
            raise LessonError(f"exercise {eid}: run.show is 'values' or 'program-map'", line("run"))
        run = RunSpec(
            params=rraw.get("params") or interp[0],
            dtype=_dtype(rraw.get("dtype", dtypes[0]), f"exercise {eid}: run.dtype", line("run")),
            kwargs=rraw.get("kwargs") or {},
            show=show,
        )

    return Exercise(
        lesson_id=folder.name,
        id=eid,
        title=_lang_table(raw.get("title"), f"exercise {eid}: title", line("title")),
        starter=starter,
        solution=solution,
        entry=raw["entry"],
        reference=raw["reference"],
        outcomes=[str(o) for o in raw.get("outcomes") or []],
        hints=hints,
        inputs=inputs,
        verify=verify,
        rejects=rejects,
        bench=bench,
        run=run,
        expect_kernel=bool(raw.get("expect_kernel", True)),
        line=start,
    )


def _verify_extras(eid: str, vraw: dict, inputs: list, dtypes: list, vline) -> dict:
    """Several outputs, gradients and operator checks (lessons 11-12; engine/outputs.py does the work)."""
    mode = vraw.get("mode", "values")
    if mode not in ("values", "grad"):
        raise LessonError(f"exercise {eid}: verify.mode is 'values' or 'grad'", vline)
    names = {i.name for i in inputs}

    def names_list(key: str, allowed=None) -> list[str]:
        value = vraw.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, str) and _IDENT.match(v) for v in value):
            raise LessonError(f"exercise {eid}: verify.{key} must be a list of names", vline)
        if allowed is not None and set(value) - allowed:
            raise LessonError(f"exercise {eid}: verify.{key} names unknown inputs {sorted(set(value) - allowed)}",
                              vline)
        return value

    outputs = names_list("outputs")
    grad_inputs = names_list("grad_inputs", names)
    if mode == "grad" and not grad_inputs:
        raise LessonError(f"exercise {eid}: verify.mode = 'grad' needs grad_inputs", vline)
    grad_output = vraw.get("grad_output", "randn")
    if grad_output not in ("randn", "ones"):
        raise LessonError(f"exercise {eid}: verify.grad_output is 'randn' or 'ones'", vline)
    known = set(outputs or ["out"]) | ({f"grad_{n}" for n in grad_inputs} if mode == "grad" else set())
    output_tolerance = vraw.get("output_tolerance") or {}
    for out, table in output_tolerance.items():
        if out not in known or not isinstance(table, dict):
            raise LessonError(f"exercise {eid}: verify.output_tolerance.{out}: not an output ({sorted(known)})", vline)
        for dt, tol in table.items():
            _dtype(dt, f"exercise {eid}: verify.output_tolerance.{out}", vline)
            if not isinstance(tol, dict) or not set(tol) <= {"atol", "rtol"}:
                raise LessonError(f"exercise {eid}: output_tolerance.{out}.{dt} must be {{ atol = …, rtol = … }}",
                                  vline)
    ops = vraw.get("ops") or []
    if not isinstance(ops, list) or not all(isinstance(o, str) and "::" in o for o in ops):
        raise LessonError(f"exercise {eid}: verify.ops must be a list of 'namespace::name' operators", vline)
    return {"mode": mode, "outputs": outputs, "grad_inputs": grad_inputs, "grad_output": grad_output,
            "output_tolerance": output_tolerance, "deterministic": bool(vraw.get("deterministic", False)),
            "ops": ops, "compile": bool(vraw.get("compile", False)),
            "requires": _requires(eid, vraw, vline), "hidden": _hidden(eid, vraw, vline)}


def _requires(eid: str, vraw: dict, vline) -> list[str]:
    """verify.requires = ["tensor-descriptors"]: what the exercise needs to run at all (lesson 13)."""
    value = vraw.get("requires") or []
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise LessonError(f"exercise {eid}: verify.requires must be a list of feature names", vline)
    unknown = [v for v in value if v not in REQUIREMENTS]
    if unknown:
        raise LessonError(f"exercise {eid}: verify.requires: unknown {unknown} (known: {', '.join(REQUIREMENTS)})",
                          vline)
    return value


def _hidden(eid: str, vraw: dict, vline) -> dict:
    """verify.hidden = { interpreter = { M = [1, 40] }, gpu = { M = [1, 5000] } }: one random case per verify."""
    value = vraw.get("hidden") or {}
    if not isinstance(value, dict) or not set(value) <= {"interpreter", "gpu"}:
        raise LessonError(f"exercise {eid}: verify.hidden has tables 'interpreter' and/or 'gpu'", vline)
    for backend, ranges in value.items():
        ok = isinstance(ranges, dict) and ranges and all(
            isinstance(r, list) and len(r) == 2 and all(isinstance(x, int) for x in r) and 0 < r[0] <= r[1]
            for r in ranges.values())
        if not ok:
            raise LessonError(f"exercise {eid}: verify.hidden.{backend} maps each param to [low, high] "
                              "(positive integers, low <= high)", vline)
    return value


_INIT_CALL = re.compile(r"^(\w+)\s*(?:\(([^)]*)\))?$")


def _bench_init(raw, eid: str, line) -> dict:
    """bench.init = { x = "randn" }: the distribution each named input is timed on."""
    if not isinstance(raw, dict):
        raise LessonError(f"exercise {eid}: bench.init maps an input name to an init such as \"randn\"", line)
    out = {}
    for name, text in raw.items():
        match = _INIT_CALL.match(str(text).strip())
        if not match or match.group(1) not in INITS:
            raise LessonError(f"exercise {eid}: bench.init.{name}: {text!r} is not one of {', '.join(INITS)}", line)
        try:
            args = tuple(a.strip() if _IDENT.match(a.strip()) else int(a)
                         for a in match.group(2).split(",")) if match.group(2) else ()
        except ValueError:
            raise LessonError(f"exercise {eid}: bench.init.{name}: init arguments must be integers or param names",
                              line)
        out[name] = (match.group(1), args)
    return out


def _input(eid: str, name: str, spec, line) -> InputSpec:
    if not _IDENT.match(name):
        raise LessonError(f"exercise {eid}: input name {name!r} must be a Python name", line)
    if not isinstance(spec, dict):
        raise LessonError(f"exercise {eid}: input {name} must be a table", line)
    if "value" in spec:
        return InputSpec(name=name, value=spec["value"], dtype=spec.get("dtype", "case"))
    shape = spec.get("shape")
    if not isinstance(shape, list) or not all(isinstance(d, (int, str)) for d in shape):
        raise LessonError(f"exercise {eid}: input {name} needs shape = [...] (ints or expressions) or value", line)
    init_text = str(spec.get("init", "randn"))
    match = _INIT_CALL.match(init_text.strip())
    if not match or match.group(1) not in INITS:
        raise LessonError(f"exercise {eid}: input {name}: init {init_text!r} is not one of {', '.join(INITS)}", line)
    init_args = ()
    if match.group(2):
        try:
            # integers, or a case param's name (randint(0, V): class ids below the vocabulary size of the case)
            init_args = tuple(a.strip() if _IDENT.match(a.strip()) else int(a) for a in match.group(2).split(","))
        except ValueError:
            raise LessonError(f"exercise {eid}: input {name}: init arguments must be integers or param names",
                              line)
    layout = spec.get("layout", "contiguous")
    if layout not in LAYOUTS:
        raise LessonError(f"exercise {eid}: input {name}: layout {layout!r} is not one of {', '.join(LAYOUTS)}", line)
    if layout in ("transposed", "sliced") and len(shape) != 2:
        raise LessonError(f"exercise {eid}: input {name}: layout {layout} needs a 2D shape", line)
    dtype = spec.get("dtype", "case")
    _dtype(dtype, f"exercise {eid}: input {name}", line, allow_case=True)
    return InputSpec(
        name=name,
        shape=shape,
        init=match.group(1),
        init_args=init_args,
        scale=float(spec.get("scale", 1.0)),
        dtype=dtype,
        layout=layout,
    )


def _quiz(path: Path) -> list[Question]:
    data, text = _read_toml(path)
    doc = _Doc(text)
    questions = []
    seen = set()
    for raw in data.get("question") or []:
        qid = raw.get("id") if isinstance(raw, dict) else None
        line = doc.line_of(f'"{qid}"') if qid else None
        err_path = path

        def fail(message: str, line=line):
            err = LessonError(message, line)
            err.path = err_path
            return err

        if not isinstance(qid, str) or not _ID.match(qid):
            raise fail(f"quiz question id {qid!r} must be lowercase letters, digits and dashes")
        if qid in seen:
            raise fail(f"duplicate quiz question id {qid!r}")
        seen.add(qid)
        try:
            prompt = _lang_table(raw.get("prompt"), f"question {qid}: prompt", line)
        except LessonError as exc:
            raise fail(str(exc)) from None
        choices = []
        for ch in raw.get("choice") or []:
            if not isinstance(ch, dict) or not isinstance(ch.get("text"), dict):
                raise fail(f"question {qid}: each choice needs text = {{ en, ja }}")
            choices.append(Choice(ch["text"], bool(ch.get("correct", False)), ch.get("explain") or {}))
        if len(choices) < 2:
            raise fail(f"question {qid}: needs at least two choices")
        if sum(c.correct for c in choices) != 1:
            raise fail(f"question {qid}: exactly one choice must be correct")
        questions.append(Question(qid, [str(o) for o in raw.get("outcomes") or []], prompt, choices))
    return questions
