"""`tritonlab check`: the lesson author's check — the static content check, then every starter fails and every
solution passes, run through the engine (rustlings' `src/dev/check.rs`).

This is the one room that may use both content and the engine; content/ itself never imports the engine. All
kernel work goes through `KernelJudge`, which uses only the engine's door (`Lab`)."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass

from tritonlab.content.check import Report, static_check
from tritonlab.content.loader import load_catalog
from tritonlab.content.model import Problem
from tritonlab.content.problems import label

#: A solution that takes longer than this on the interpreter makes the lesson slow to learn with (a warning).
INTERPRETER_BUDGET_S = 3.0
VERIFY_TIMEOUT_S = 300.0


@dataclass(frozen=True)
class Verdict:
    passed: bool
    backend: str
    summary: str
    seconds: float
    skipped: bool = False  # verify.requires unmet on this backend/Triton: neither pass nor fail


class KernelJudge:
    """Verifies one exercise's starter or solution through the engine's door (`Lab`, with the GPU replay
    and audit inside it); the check's only way to kernels. The verdict's line is made by the presentation
    layer, in the check's language."""

    def __init__(self, backend: str, lang: str = "en"):
        from tritonlab.engine.lab import Lab

        self._lab = Lab(backend=backend)
        self._lang = lang

    def verify(self, exercise_key: str, *, file: str | None = None, solution: bool = False) -> Verdict:
        from tritonlab.present.verify import summary

        args: dict = {"exercise": exercise_key, **({"solution": True} if solution else {"file": file})}
        started = time.perf_counter()
        result = self._lab.verify(args, timeout=VERIFY_TIMEOUT_S)
        seconds = time.perf_counter() - started
        return Verdict(
            result.passed,
            str(result.backend or "?"),
            summary(result, self._lang),
            seconds,
            skipped=bool(result.get("skipped")),
        )

    def close(self) -> None:
        self._lab.close()


def kernel_check(
    catalog,
    report: Report,
    backend: str = "interpreter",
    only: set | None = None,
    on_progress=None,
    lang: str = "en",
) -> None:
    judge = KernelJudge(backend, lang)
    try:
        for exercise in catalog.all_exercises():
            if only and exercise.lesson_id not in only:
                continue
            meta = exercise.starter.parent / "lesson.toml"
            for which in ("solution", "starter"):
                if on_progress:
                    on_progress(f"{exercise.key} {which}")
                if which == "solution":
                    verdict = judge.verify(exercise.key, solution=True)
                else:
                    verdict = judge.verify(exercise.key, file=str(exercise.starter))
                report.runs.append(
                    {
                        "exercise": exercise.key,
                        "which": which,
                        "passed": verdict.passed,
                        "seconds": round(verdict.seconds, 2),
                        "backend": verdict.backend,
                        "summary": verdict.summary,
                        **({"skipped": True} if verdict.skipped else {}),
                    }
                )
                if verdict.skipped:  # said in the run's line, with the reason; not a failure of either side
                    continue
                values = {"key": exercise.key, "backend": verdict.backend}
                if which == "solution" and not verdict.passed:
                    report.failures.append(
                        Problem(meta, exercise.line, "solution-fails", {**values, "summary": verdict.summary})
                    )
                if which == "starter" and verdict.passed:
                    report.failures.append(Problem(exercise.starter, None, "starter-passes", values))
                if (
                    which == "solution"
                    and verdict.backend == "interpreter"
                    and verdict.seconds > INTERPRETER_BUDGET_S
                ):
                    report.warnings.append(
                        Problem(
                            meta,
                            exercise.line,
                            "slow-verify",
                            {
                                "key": exercise.key,
                                "seconds": round(verdict.seconds, 1),
                                "budget": INTERPRETER_BUDGET_S,
                            },
                        )
                    )
    finally:
        judge.close()


def run_check(
    run_kernels: bool = True,
    backend: str = "interpreter",
    as_json: bool = False,
    lessons: list[str] | None = None,
    lang: str = "en",
) -> int:
    catalog = load_catalog()
    only = None
    if lessons:
        only = set()
        for ref in lessons:
            lesson = catalog.lesson(ref)
            if lesson is None:
                print(f"tritonlab: {label('no-lesson', lang, ref=repr(ref))}", file=sys.stderr)
                return 2
            only.add(lesson.id)
    report = Report()
    static_check(catalog, report, only)
    if run_kernels:
        progress = (
            None
            if as_json or not sys.stderr.isatty()
            else (lambda m: (sys.stderr.write(f"\r\033[K{m}"), sys.stderr.flush()))
        )
        kernel_check(catalog, report, backend=backend, only=only, on_progress=progress, lang=lang)
        if progress:
            sys.stderr.write("\r\033[K")
    if as_json:
        print(
            json.dumps(
                {
                    "ok": not report.failures,
                    "failures": [p.located(lang) for p in report.failures],
                    "warnings": [p.located(lang) for p in report.warnings],
                    "problems": [p.to_dict(lang) for p in report.failures],
                    "runs": report.runs,
                },
                ensure_ascii=False,
                indent=2,
            )
        )
    else:
        print_report(report, lang)
    return 0 if not report.failures else 1


def print_report(report: Report, lang: str) -> None:
    for run in report.runs:
        mark = label("skip" if run.get("skipped") else "pass" if run["passed"] else "fail", lang)
        print(
            f"{run['exercise']:<40} {label(run['which'], lang):<9} {mark:<5} {run['seconds']:>6.2f}s  "
            f"{run['backend']}" + (f"  ({run['summary']})" if run.get("skipped") else "")
        )
    for warning in report.warnings:
        print(f"{label('warning', lang)}: {warning.located(lang)}")
    for failure in report.failures:
        print(f"{label('fail', lang)}: {failure.located(lang)}")
    print(label("ok", lang) if not report.failures else label("problems", lang, count=len(report.failures)))
