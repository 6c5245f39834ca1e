"""Human-readable terminal output for the headless commands (rich, no Textual)."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from tritonlab.i18n import t


def _err_line(err: dict) -> str:
    where = f" at line {err['line']}" if err.get("line") else ""
    return f"[bold red]{err.get('kind', 'error')} error{where}[/]: {escape(str(err.get('message', '')))}"


def _fmt(value, digits=3) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    return str(value)


def print_verify(console, result: dict, lang: str = "en") -> None:
    head = f"[bold]{escape(str(result.get('exercise')))}[/] on the [bold]{result.get('backend', '?')}[/]"
    if result.get("file"):
        head += f"  [dim]{escape(result['file'])}[/]"
    console.print(head)
    cases = result.get("cases") or []
    if cases:
        table = Table(show_edge=False, pad_edge=False, box=None)
        for col in ("", t("case", lang), "max abs err", "max rel err", "mismatches", "why"):
            table.add_column(col)
        for case in cases:
            mark = "[green]✓[/]" if case.get("passed") else "[red]✗[/]"
            why = ", ".join(dict.fromkeys(d.get("kind", "") for d in case.get("diagnoses") or []))
            table.add_row(mark, escape(case.get("name", "")), _fmt(case.get("max_abs_err")),
                          _fmt(case.get("max_rel_err")), _fmt(case.get("mismatches")), escape(why))
        console.print(table)
    if result.get("error"):
        console.print(_err_line(result["error"]))
        detail = result["error"].get("stderr_tail") or result["error"].get("traceback")
        if detail:
            console.print(f"[dim]{escape(detail)}[/]")
    failing = next((c for c in cases if not c.get("passed")), None)
    if failing is not None:
        console.print(f"[bold]{escape(failing.get('name', ''))}[/]:")
        for diag in failing.get("diagnoses", [])[:4]:
            console.print(f"  • {escape(diag.get('message', ''))}")
        if failing.get("map"):
            console.print(f"[dim]map of {escape(failing.get('name', ''))}:[/]")
            console.print(escape(failing["map"]))
        for item in (failing.get("first") or [])[:5]:
            console.print(f"  index {item.get('index')}: got {item.get('got')}, expected {item.get('expected')}")
    if result.get("replay", {}).get("line"):
        replay = result["replay"]
        console.print(f"[yellow]replayed on the interpreter's bounds checker: line {replay['line']}[/]: "
                      f"{escape(str(replay.get('message')))}")
    if result.get("output"):
        console.print("[dim]your program printed:[/]")
        console.print(escape(result["output"][-2000:]))
    status = t("passed", lang) if result.get("passed") else t("failed", lang)
    color = "green" if result.get("passed") else "red"
    console.print(f"[bold {color}]{status}[/] {escape(result.get('summary', ''))}")


def print_run(console, result: dict) -> None:
    if result.get("error"):
        console.print(_err_line(result["error"]))
    for line in result.get("lines", []):
        console.print(escape(line))
    if result.get("output"):
        console.print("[dim]your program printed:[/]")
        console.print(escape(result["output"][-4000:]))


def print_bench(console, result: dict) -> None:
    lines = result.get("lines") or []
    if result.get("error"):
        console.print(_err_line(result["error"]))
        detail = result["error"].get("stderr_tail") or result["error"].get("traceback")
        if detail:
            console.print(f"[dim]{escape(detail)}[/]")
        if result.get("verified") is False:
            lines = lines[1:]  # the error already says why it was not timed
    for index, line in enumerate(lines):
        text = escape(line)
        if index == 0 and result.get("verified"):
            text = f"[bold]{text}[/]"
        elif "← best" in line:
            text = text.replace("← best", "[bold green]← best[/]")
        console.print(text, soft_wrap=True)
    if not lines and not result.get("error"):
        console.print(escape(str(result)))


def print_ir(console, result: dict) -> None:
    if result.get("error"):
        console.print(_err_line(result["error"]))
        if result["error"].get("stderr_tail"):
            console.print(f"[dim]{escape(result['error']['stderr_tail'])}[/]")
        return
    for line in result.get("header", []):
        console.print(f"[dim]{escape(line)}[/]", soft_wrap=True)
    print(result.get("text", ""), end="" if result.get("text", "").endswith("\n") else "\n")


def print_doctor(console, report: dict) -> None:
    for item in report.get("checks", []):
        mark = {"ok": "[green]✓[/]", "warn": "[yellow]![/]", "fail": "[red]✗[/]", "info": "[dim]·[/]"}.get(
            item.get("status"), "?")
        console.print(f"{mark} {item['name']:<22} {escape(str(item.get('value', '')))}")
        if item.get("fix") and item.get("status") in ("warn", "fail"):
            console.print(f"    [dim]fix: {escape(item['fix'])}[/]")
    verdict = "[green]the lab can run kernels[/]" if report.get("ok") else "[red]the lab cannot run kernels[/]"
    console.print(f"{verdict} on the [bold]{report.get('backend', '?')}[/]")
