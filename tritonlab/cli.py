"""Command line: one function per command. Never imports torch or triton (the worker does)."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from pathlib import Path
from typing import NoReturn

from tritonlab import __version__

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A refused command line (exit 2). `ja` is the Japanese wording; without one the text is quoted verbatim
    (a message from elsewhere, e.g. the catalog's "no exercise '99'")."""

    def __init__(self, message: str, ja: str | None = None) -> None:
        super().__init__(message)
        self.ja = ja

    def in_(self, lang: str) -> str:
        if lang != "ja":
            return str(self)
        return self.ja if self.ja is not None else f"«{self}»"


def _console():
    from rich.console import Console

    from tritonlab.present import cjk_wrap

    cjk_wrap.install()  # Japanese lines break between characters, as in the app (rich breaks at spaces only)
    return Console(highlight=False, soft_wrap=False)


def _lang(value: str | None) -> str:
    from tritonlab.i18n import detect_lang

    return value or detect_lang()


def _catalog():
    from tritonlab.content.loader import load_catalog

    return load_catalog()


def _report_lesson_problems(catalog, lang: str) -> None:
    """Broken lessons are named on stderr (one `path:line: message` each) while the command goes on."""
    for problem in catalog.problems:
        print(f"tritonlab: {problem.located(lang)}", file=sys.stderr)


def _exercise(ref: str, lang: str | None = None):
    catalog = _catalog()
    _report_lesson_problems(catalog, _lang(lang))
    try:
        return catalog, catalog.exercise(ref)
    except KeyError as exc:
        facts = getattr(exc, "facts", None)
        if facts is None:
            raise UsageError(str(exc).strip("'\"")) from None
        from tritonlab.present.usage import unknown_ref

        said = unknown_ref(facts)
        raise UsageError(said.en, said.ja) from None


def _report_notices(opts, data: dict | None = None) -> dict | None:
    """What the store had to do about a user file (set aside, a wrong setting, a folder it cannot write): with
    `data`, added to a --json object under "notices"; without, printed one line each on stderr (and
    cleared)."""
    from tritonlab import store

    lang = _lang(getattr(opts, "lang", None))
    if data is not None:
        return {**data, "notices": [notice.to_dict(lang) for notice in store.pending_notices()]}
    for notice in store.take_notices():
        print(f"tritonlab: {notice.text(lang)}", file=sys.stderr)
    return None


def _emit_json(data) -> None:
    from tritonlab.engine.protocol import _clean

    if isinstance(data, dict):
        data = _report_notices(_OPTS, data)
    print(json.dumps(_clean(data), ensure_ascii=False, indent=2, default=str))


# ---- list ---------------------------------------------------------------------------------------


def cmd_list(opts) -> int:
    from tritonlab import store
    from tritonlab.content.model import tr

    catalog = _catalog()
    progress = store.load_progress()
    if opts.json:
        _emit_json(
            {
                "lessons": [
                    {
                        "id": lesson.id,
                        "number": lesson.number,
                        "title": lesson.title,
                        "outcomes": [o.id for o in lesson.outcomes],
                        "quiz": len(lesson.quiz),
                        "exercises": [
                            {
                                "id": e.id,
                                "key": e.key,
                                "ref": f"{lesson.number}/{e.id}",
                                "title": e.title,
                                "entry": e.entry,
                                "outcomes": e.outcomes,
                                "state": store.exercise_state(e.key, progress),
                            }
                            for e in lesson.exercises
                        ],
                    }
                    for lesson in catalog.lessons
                ],
                "problems": [p.to_dict(_lang(opts.lang)) for p in catalog.problems],
            }
        )
        return EXIT_OK
    console = _console()
    lang = _lang(opts.lang)
    for lesson in catalog.lessons:
        console.print(f"[bold]{lesson.number:>2}[/]  {tr(lesson.title, lang)}  [dim]{lesson.id}[/]")
        for e in lesson.exercises:
            state = store.exercise_state(e.key, progress)
            mark = {"verified": "[green]✓[/]", "in progress": "[yellow]…[/]"}.get(state, " ")
            console.print(f"     {mark} {lesson.number}/{e.id:<22} {tr(e.title, lang)}")
        if lesson.quiz:
            console.print(
                f"       [dim]quiz: {len(lesson.quiz)} questions — tritonlab quiz {lesson.number}[/]"
            )
    from rich.markup import escape

    for problem in catalog.problems:
        console.print(f"[red]{escape(problem.located(lang))}[/]", soft_wrap=True)
    return EXIT_OK


# ---- the worker-backed commands -----------------------------------------------------------------


def _code_args(opts, exercise) -> dict:
    from tritonlab import store

    args = {"exercise": exercise.key}
    if getattr(opts, "solution", False):
        args["solution"] = True
    elif getattr(opts, "file", None):
        path = Path(opts.file)
        if not path.is_file():
            raise UsageError(f"--file {opts.file}: no such file", f"--file {opts.file}: ファイルがありません")
        args["file"] = str(path.resolve())
    else:
        draft = store.draft_path(exercise.key)
        if not store.draft_is_blocked(exercise.key) and draft.is_file():
            args["file"] = str(draft)
    return args


def _lab(opts):
    from tritonlab.engine.lab import Lab

    return Lab(backend=opts.backend)


def _progress_printer(opts):
    if opts.json or not sys.stderr.isatty():
        return None
    from tritonlab.present.cli import progress_text

    lang = _lang(opts.lang)

    def show(event):
        sys.stderr.write(f"\r\033[K{progress_text(event, lang)}")
        sys.stderr.flush()

    return show


def _ask(opts, op: str, args: dict, lab=None, **extra):
    """One request through the Lab (verify includes the GPU→interpreter fault replay); a refused request is
    a usage error (exit 2), worded from its facts in the learner's language. `lab`: one the caller keeps open
    (verify's audit follows on it)."""
    from tritonlab.engine.lab import is_usage_error

    with contextlib.nullcontext(lab) if lab is not None else _lab(opts) as lab:
        try:
            result = lab.request(op, args, timeout=opts.timeout, on_progress=_progress_printer(opts), **extra)
        finally:
            if not opts.json and sys.stderr.isatty():
                sys.stderr.write("\r\033[K")
    if is_usage_error(result):
        from tritonlab.present.usage import refusal

        if opts.json:  # the refusal's facts (code, values) and the English `message`, for scripts
            _emit_json(result.to_json())
        said = refusal(result.error.to_json())
        if said is not None:
            raise UsageError(said.en, said.ja)
        raise UsageError(result.error.get("exception") or result.error.message)
    return result


def _emit_result(opts, op: str, result) -> None:
    """--json: today's keys, plus (for run and bench) the English `lines` older readers expect; else words."""
    from tritonlab.present import cli as printers

    if opts.json:
        data = result.to_json()
        if op == "profile":
            from tritonlab.present.profile import lines as profile_lines

            data.setdefault("lines", profile_lines(data, "en"))
        if op in ("run", "bench"):
            from tritonlab.present.bench import lines as bench_lines
            from tritonlab.present.run import run_lines

            data.setdefault("lines", run_lines(data, "en") if op == "run" else bench_lines(data, "en"))
        if op == "verify":
            from tritonlab.present.verify import summary

            data["summary"] = data.get("summary") or summary(data, "en")
        _emit_json(data)
        return
    printer = {
        "verify": printers.print_verify,
        "run": printers.print_run,
        "bench": printers.print_bench,
        "ir": printers.print_ir,
        "profile": printers.print_profile,
    }[op]
    printer(_console(), result, _lang(opts.lang))


def cmd_verify(opts) -> int:
    catalog, exercise = _exercise(opts.exercise, opts.lang)
    args = _code_args(opts, exercise)
    with _lab(opts) as lab:
        # A GPU pass is printed at once; its interpreter audit (seconds) follows and may withdraw it.
        result = _ask(opts, "verify", args, lab=lab, audit="later")
        if (result.audit or {}).get("state") == "pending":
            if not opts.json:
                _emit_result(opts, "verify", result)
                _print_audit(opts, result)
            result = lab.audit(result, args, timeout=opts.timeout)
            if not opts.json:
                _print_audit(opts, result)
        elif not opts.json:
            _emit_result(opts, "verify", result)
    if result.passed and not args.get("solution") and not opts.file:
        from tritonlab import store

        store.mark_verified(exercise.key, result.backend or "?", code_path=args.get("file"))
    if opts.json:
        _emit_result(opts, "verify", result)  # the final verdict; `audit` says what the audit did to it
    return EXIT_OK if result.passed else EXIT_FAIL


def _print_audit(opts, result) -> None:
    """The audit's line (pending, or what it found) under the printed GPU verdict."""
    from rich.markup import escape

    from tritonlab.present.verify import audit_line, replay_line

    lang = _lang(opts.lang)
    state = (result.audit or {}).get("state")
    color = {"pending": "dim", "clean": "green", "incomplete": "yellow"}.get(state or "", "bold red")
    console = _console()
    console.print(f"[{color}]{escape(audit_line(result, lang) or '')}[/]")
    where = replay_line(result, lang) if state == "found" else None
    if where:
        console.print(f"[yellow]{escape(where)}[/]")


def cmd_run(opts) -> int:
    catalog, exercise = _exercise(opts.exercise, opts.lang)
    result = _ask(opts, "run", _code_args(opts, exercise))
    _emit_result(opts, "run", result)
    return EXIT_FAIL if result.error else EXIT_OK


def cmd_bench(opts) -> int:
    catalog, exercise = _exercise(opts.exercise, opts.lang)
    result = _ask(opts, "bench", _code_args(opts, exercise))
    _emit_result(opts, "bench", result)
    return EXIT_FAIL if result.error else EXIT_OK


def cmd_profile(opts) -> int:
    catalog, exercise = _exercise(opts.exercise, opts.lang)
    args = _code_args(opts, exercise)
    if opts.size:
        args["size"] = _size(opts.size)
    result = _ask(opts, "profile", args)
    _emit_result(opts, "profile", result)
    return EXIT_FAIL if result.error else EXIT_OK


def _size(text: str) -> dict:
    """--size M=4096,N=4096 -> {"M": 4096, "N": 4096}"""
    size: dict[str, int] = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        if not name.strip().isidentifier() or not value.strip().isdigit():
            raise UsageError(
                f"--size {text}: write NAME=INTEGER pairs, e.g. M=4096,N=4096",
                f"--size {text}: 名前=整数 の組で書いてください(例: M=4096,N=4096)",
            )
        size[name.strip()] = int(value)
    return size


def cmd_ir(opts) -> int:
    catalog, exercise = _exercise(opts.exercise, opts.lang)
    args = _code_args(opts, exercise)
    args.update(stage=opts.stage, arch=opts.arch)
    result = _ask(opts, "ir", args)
    _emit_result(opts, "ir", result)
    return EXIT_FAIL if result.error else EXIT_OK


def cmd_doctor(opts) -> int:
    from tritonlab.doctor import run_doctor

    with _lab(opts) as lab:
        report = run_doctor(lab, timeout=opts.timeout)
    if opts.json:
        _emit_json(report)
    else:
        from tritonlab.present.cli import print_doctor

        print_doctor(_console(), report, _lang(opts.lang))
    return EXIT_OK if report.get("ok") else EXIT_FAIL


def cmd_quiz(opts) -> int:
    from tritonlab.quiz import run_quiz

    catalog = _catalog()
    _report_lesson_problems(catalog, _lang(opts.lang))
    lesson = catalog.lesson(opts.lesson)
    if lesson is None:
        from tritonlab.present.usage import unknown_ref

        known = [str(les.number) for les in catalog.lessons]
        said = unknown_ref({"what": "lesson", "ref": opts.lesson, "known": known})
        raise UsageError(said.en, said.ja)
    if not lesson.quiz:
        raise UsageError(f"lesson {lesson.id} has no quiz", f"レッスン {lesson.id} には確認問題がありません")
    return run_quiz(lesson, _lang(opts.lang), answers=opts.answers, as_json=opts.json)


def cmd_check(opts) -> int:
    from tritonlab.dev.check import run_check

    return run_check(
        run_kernels=not opts.no_kernels,
        backend=opts.backend,
        as_json=opts.json,
        lessons=opts.lessons or None,
        lang=_lang(opts.lang),
    )


def cmd_open(opts) -> int:
    try:
        from tritonlab.app.main import run_app
    except ImportError as exc:  # Textual (or a part of the app) cannot be imported: say so in `lang`
        from tritonlab.present.words import Said

        said = Said(
            f"the terminal app is not available ({exc})", f"ターミナルアプリを利用できません: «{exc}»"
        )
        print(f"tritonlab: {said.in_(_lang(opts.lang))}", file=sys.stderr)
        return EXIT_FAIL
    exercise_ref = getattr(opts, "exercise", None)
    catalog = None
    if exercise_ref:
        # a clear usage error before the screen opens; the app uses this catalog (loading it again took 0.1 s)
        catalog, _ = _exercise(exercise_ref, opts.lang)
    return run_app(exercise=exercise_ref, lang=opts.lang, backend=opts.backend, catalog=catalog) or EXIT_OK


# ---- parser -------------------------------------------------------------------------------------


_ARGV: list[str] = []  # the command line being parsed: its --lang, for argparse's refusals


def _argv_lang(argv: list[str]) -> str:
    """The --lang of a command line argparse refused (so never parsed): its last --lang ja|en, else the
    locale's."""
    lang = None
    for i, token in enumerate(argv):
        if token == "--lang" and i + 1 < len(argv):
            lang = argv[i + 1]
        elif token.startswith("--lang="):
            lang = token.partition("=")[2]
    return lang if lang in ("en", "ja") else _lang(None)


class _Parser(argparse.ArgumentParser):
    """argparse, refusing a command line (a bad choice, a missing argument) in the learner's language: its own
    messages are English only. The subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        from tritonlab.present.usage import argparse_message

        lang = _argv_lang(_ARGV)
        usage = self.format_usage()
        if lang == "ja":
            usage = usage.replace("usage: ", "使い方: ", 1)
        self._print_message(usage, sys.stderr)
        word = "エラー" if lang == "ja" else "error"
        self.exit(EXIT_USAGE, f"{self.prog}: {word}: {argparse_message(message, lang)}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tritonlab", description="A terminal lab for learning Triton kernels.")
    parser.add_argument("--version", action="version", version=f"tritonlab {__version__}")
    parser.add_argument("--lang", choices=["en", "ja"], help="language (default: from the locale)")
    parser.add_argument(
        "--backend",
        choices=["auto", "gpu", "interpreter"],
        default="auto",
        help="where kernels run (default: the GPU if there is one, else Triton's interpreter)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    def common(p, timeout=120.0):
        p.add_argument("--json", action="store_true", help="print one JSON object")
        p.add_argument("--lang", choices=["en", "ja"], default=argparse.SUPPRESS)
        p.add_argument("--backend", choices=["auto", "gpu", "interpreter"], default=argparse.SUPPRESS)
        p.add_argument(
            "--timeout",
            type=float,
            default=timeout,
            metavar="SECONDS",
            help=f"stop the kernel after this long (default {timeout:g})",
        )

    def code(p):
        group = p.add_mutually_exclusive_group()
        group.add_argument("--file", metavar="PATH", help="verify this file instead of your draft")
        group.add_argument("--solution", action="store_true", help="use the reference solution")

    p = sub.add_parser("list", help="lessons and exercises")
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", choices=["en", "ja"], default=argparse.SUPPRESS)
    p.set_defaults(func=cmd_list)

    for name, func, helptext in (
        ("verify", cmd_verify, "check your kernel against torch on every case"),
        ("run", cmd_run, "run the exercise's demo and show inputs and outputs"),
        ("bench", cmd_bench, "time your kernel against torch (GPU) or count its bytes (interpreter)"),
        ("ir", cmd_ir, "show your kernel at a compiler stage"),
        ("profile", cmd_profile, "where one call spends its time, kernel by kernel (GPU), or its launches"),
    ):
        p = sub.add_parser(name, help=helptext)
        p.add_argument("exercise", metavar="EXERCISE", help="LESSON[/EXERCISE], e.g. 5 or 05-vector-add/add")
        code(p)
        common(p, 600.0 if name == "bench" else 300.0 if name == "profile" else 120.0)
        if name == "profile":
            p.add_argument("--size", metavar="K=V,...", help="input size (default: the first bench size)")
        if name == "ir":
            p.add_argument("--stage", choices=["ttir", "ttgir", "llir", "ptx", "sass"], default="ttir")
            p.add_argument(
                "--arch", default=None, metavar="sm_NN", help="target when there is no GPU (default sm_90)"
            )
        p.set_defaults(func=func)

    p = sub.add_parser("doctor", help="check Python, torch, triton, CUDA and the interpreter")
    common(p, 180.0)
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("quiz", help="self-check questions for a lesson")
    p.add_argument("lesson", metavar="LESSON")
    p.add_argument("--answers", help="answer without prompting, e.g. 'a,c,b' (for scripts)")
    p.add_argument("--json", action="store_true")
    p.add_argument("--lang", choices=["en", "ja"], default=argparse.SUPPRESS)
    p.set_defaults(func=cmd_quiz)

    p = sub.add_parser(
        "check", help="developer: validate lessons; every starter fails, every solution passes"
    )
    p.add_argument("lessons", nargs="*", metavar="LESSON")
    p.add_argument("--no-kernels", action="store_true", help="only the static checks")
    p.add_argument("--json", action="store_true")
    p.add_argument("--backend", choices=["auto", "gpu", "interpreter"], default=argparse.SUPPRESS)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("open", help="open the app at one exercise")
    p.add_argument("exercise", metavar="EXERCISE", nargs="?")
    p.add_argument("--lang", choices=["en", "ja"], default=argparse.SUPPRESS)
    p.add_argument("--backend", choices=["auto", "gpu", "interpreter"], default=argparse.SUPPRESS)
    p.set_defaults(func=cmd_open)
    return parser


_OPTS = None  # the parsed options, for _emit_json's notices


def main(argv: list[str] | None = None) -> int:
    global _OPTS, _ARGV
    _ARGV = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser()
    opts = _OPTS = parser.parse_args(argv)
    if not getattr(opts, "func", None):
        opts.func = cmd_open
        opts.exercise = None
    try:
        return opts.func(opts)
    except UsageError as exc:
        lang = _lang(getattr(opts, "lang", None))
        print(f"tritonlab: {'エラー' if lang == 'ja' else 'error'}: {exc.in_(lang)}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        os._exit(EXIT_OK)
    finally:
        _report_notices(opts)


if __name__ == "__main__":
    sys.exit(main())
