"""The headless commands' terminal output (rich, no Textual): verify, run, bench, ir, doctor — in `lang`.

Every word comes from the presenters beside this module; the engine's English `message`/`summary`/`lines` keys
are never printed. Text the lab quotes verbatim (Python's own exception text, the learner's output) is marked
as such.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from tritonlab.i18n import t
from tritonlab.present import bench as bench_words
from tritonlab.present import doctor as doctor_words
from tritonlab.present import ir as ir_words
from tritonlab.present import verify as verify_words
from tritonlab.present.diagnoses import describe
from tritonlab.present.numbers import number
from tritonlab.present.run import run_lines
from tritonlab.present.words import pick


def _json(result: Any) -> dict:
    to_json = getattr(result, "to_json", None)
    return to_json() if callable(to_json) else dict(result)


def error_line(err: dict, lang: str) -> str:
    head = verify_words.error_head(err, lang)
    return f"[bold red]{escape(head)}[/]: {escape(describe(err, lang))}"


def _detail(console, err: dict) -> None:
    detail = err.get("stderr_tail") or err.get("traceback")
    if detail:
        console.print(f"[dim]{escape(str(detail))}[/]")


def _printed(console, output: str, lang: str, cap: int) -> None:
    if output:
        console.print(f"[dim]{escape(verify_words.PRINTED.in_(lang))}[/]")
        console.print(escape(printed_tail(output, cap)))


def printed_tail(output: str, cap: int) -> str:
    """The last `cap` characters of what the program printed, from a line's start (a cut mid-line read as
    output of its own): "…" on a line of its own says that more came before."""
    if len(output) <= cap:
        return output
    tail = output[-cap:]
    _, newline, rest = tail.partition("\n")
    return "…\n" + rest if newline and rest else "…" + tail


def print_verify(console, result: Any, lang: str = "en") -> None:
    r = _json(result)
    head = f"[bold]{escape(verify_words.headline(r, lang))}[/]"
    if r.get("file"):
        head += f"  [dim]{escape(str(r['file']))}[/]"
    console.print(head)
    cases = r.get("cases") or []
    if cases:
        console.print(_case_table(console, cases, lang))
    if r.get("error"):
        console.print(error_line(r["error"], lang))
        _detail(console, r["error"])
    failing = next((c for c in cases if not c.get("passed")), None)
    if failing is not None:
        # the error above is also the failing case's first diagnosis: said once (it was printed three times)
        diags = [d for d in (failing.get("diagnoses") or []) if not _same_error(d, r.get("error"))][:4]
        details = verify_words.map_lines(failing, lang), verify_words.first_lines(failing, lang)
        if diags or any(details):
            console.print(f"[bold]{escape(verify_words.case_name(failing, lang))}[/]:")
        for diag in diags:
            console.print(f"  • {escape(describe(diag, lang))}")
        for line in details[0]:
            console.print(escape(line))
        for line in details[1]:
            console.print("  " + escape(line))
    replay = verify_words.replay_line(r, lang)
    if replay:
        console.print(f"[yellow]{escape(replay)}[/]")
    _printed(console, r.get("output") or "", lang, 2000)
    warned = verify_words.interpreter_warnings(cases, lang)
    if warned:
        console.print(f"[dim]{escape(verify_words.WARNED.in_(lang))}[/]")
        for line in warned:
            console.print(escape(line))
    status = (
        t("passed", lang)
        if r.get("passed")
        else t("skipped", lang)
        if r.get("skipped")
        else t("failed", lang)
    )
    color = "green" if r.get("passed") else "yellow" if r.get("skipped") else "red"
    # an error's sentence is printed in full above: the last line names it and its line only
    last = verify_words.error_head(r["error"], lang) if r.get("error") else verify_words.summary(r, lang)
    console.print(f"[bold {color}]{status}[/] {escape(last)}")


def _case_table(console, cases: list, lang: str) -> Table:
    """One row per case; the numbers keep their width and the case's name wraps in a column as wide as 80
    columns leave it (at most CASE_WIDTH; a reject case's name is a sentence)."""
    rows = [
        (
            "✓" if case.get("passed") else "✗",
            verify_words.case_name(case, lang),
            *verify_words.error_cells(case, lang),
            number(case.get("mismatches")),
            verify_words.why(case, lang),
        )
        for case in cases
    ]
    headers = verify_words.column_headers(lang)
    widths = [max(cell_len(text) for text in column) for column in zip(headers, *rows, strict=True)]
    why_width = min(widths[5], 16)  # the why column wraps past this
    room = console.width - sum(widths[0:1] + widths[2:5]) - why_width - 2 * (len(headers) - 1)
    case_width = max(12, min(verify_words.CASE_WIDTH, widths[1], room))
    table = Table(show_edge=False, pad_edge=False, box=None)
    table.add_column(headers[0], no_wrap=True)
    table.add_column(headers[1], width=case_width, no_wrap=True)
    for header in headers[2:5]:
        table.add_column(header, no_wrap=True)
    table.add_column(headers[5], overflow="fold")  # a CJK label has no space to wrap at: fold, never cut
    for mark, name, *cells in rows:
        color = "red" if mark == "✗" else "green"
        table.add_row(
            Text(mark, style=color), _case_cell(console, name, case_width), *(Text(c) for c in cells)
        )
    return table


def _case_cell(console, name: str, width: int) -> Text:
    """A case's name wrapped to `width`, at most CASE_LINES lines (the last one ending in "…")."""
    lines = Text(name).wrap(console, width, overflow="fold")
    kept = list(lines)[: verify_words.CASE_LINES]
    for line in kept:
        line.rstrip()
    if len(lines) > len(kept):
        kept[-1].append("…")
        kept[-1].truncate(width, overflow="ellipsis")
    return Text("\n").join(kept)


def _same_error(diag: dict, err: dict | None) -> bool:
    """A case's diagnosis that repeats the verify's error (same kind, line and words)."""
    if not isinstance(err, dict) or not isinstance(diag, dict):
        return False
    return all(diag.get(k) == err.get(k) for k in ("kind", "line", "message"))


def print_run(console, result: Any, lang: str = "en") -> None:
    r = _json(result)
    if r.get("error"):
        console.print(error_line(r["error"], lang))
    for line in run_lines(r, lang):
        console.print(escape(line))
    _printed(console, r.get("output") or "", lang, 4000)


def print_profile(console, result: Any, lang: str = "en") -> None:
    from tritonlab.present.profile import lines

    r = _json(result)
    if r.get("error"):
        console.print(error_line(r["error"], lang))
        _detail(console, r["error"])
        return
    for index, line in enumerate(lines(r, lang)):
        console.print(f"[bold]{escape(line)}[/]" if index == 0 else escape(line), soft_wrap=True)


def print_bench(console, result: Any, lang: str = "en") -> None:
    r = _json(result)
    blocks = bench_words.blocks(r, lang)  # the error is printed first: the blocks do not repeat "not timed"
    if r.get("error"):
        console.print(error_line(r["error"], lang))
        _detail(console, r["error"])
    for index, block in enumerate(blocks):
        if block[0] == "text":
            text = escape(block[1])
            console.print(f"[bold]{text}[/]" if index == 0 and r.get("verified") else text, soft_wrap=True)
            continue
        _, headers, rows, best = block
        mark = bench_words.best_mark(lang)
        for i, line in enumerate(bench_words.table(headers, [list(row) for row in rows])):
            suffix = f"  [bold green]{escape(mark)}[/]" if i - 1 in best else ""
            console.print(escape(line) + suffix, soft_wrap=True)


def print_ir(console, result: Any, lang: str = "en") -> None:
    r = _json(result)
    if r.get("error"):
        console.print(error_line(r["error"], lang))
        if r["error"].get("stderr_tail"):
            console.print(f"[dim]{escape(r['error']['stderr_tail'])}[/]")
        return
    for line in ir_words.header(r, lang):
        console.print(f"[dim]{escape(line)}[/]", soft_wrap=True)
    text = r.get("text", "")
    print(text, end="" if text.endswith("\n") else "\n")


def print_doctor(console, report: Any, lang: str = "en") -> None:
    r = _json(report)
    for item in r.get("checks", []):
        mark = {"ok": "[green]✓[/]", "warn": "[yellow]![/]", "fail": "[red]✗[/]", "info": "[dim]·[/]"}.get(
            item.get("status"), "?"
        )
        console.print(
            f"{mark} {escape(_pad(doctor_words.name(item, lang), 22))} "
            f"{escape(doctor_words.value(item, lang))}"
        )
        fix = doctor_words.fix(item, lang)
        if fix:
            console.print(f"    [dim]{escape(pick(lang, 'fix: ', '対処: ') + fix)}[/]")
    color = "green" if r.get("ok") else "red"
    console.print(f"[{color}]{escape(doctor_words.verdict(r, lang))}[/]")


def _pad(text: str, cells: int) -> str:
    return text + " " * max(0, cells - bench_words.cell_width(text))


def progress_text(event: dict, lang: str) -> str:
    """A worker progress event in words: 'case 3/12: n=1000 · float32' / 'ケース 3/12: …'."""
    if event.get("stage") == "replay":
        return pick(lang, "checking bounds on the interpreter…", "インタプリタで境界を確認中…")
    if event.get("case") is not None and event.get("total") is not None:
        name = str(event.get("name") or "")
        if event.get("reject"):
            name = pick(lang, "rejects ", "拒否: ") + name
        return pick(lang, "case", "ケース") + f" {event['case']}/{event['total']}: {name}"
    return pick(lang, str(event.get("message", "")), "処理中…")
