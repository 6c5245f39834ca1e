"""Small rich-Text helpers shared by the result panels; every word comes from `tritonlab.present`."""

from __future__ import annotations

from rich.text import Text

from tritonlab.app.strings import t
from tritonlab.engine.results import Kind
from tritonlab.present.diagnoses import describe, signal_text
from tritonlab.present.numbers import number, value_text
from tritonlab.present.verify import error_head
from tritonlab.present.words import pick

__all__ = ["error_detail", "error_head", "error_text", "number", "restart_notice", "value_text"]


def error_text(err: dict, lang: str, detail: bool = True) -> Text:
    """The error's headline (kind, line) and its sentence, then (unless `detail` is off) any raw detail."""
    text = Text()
    text.append(error_head(err, lang), style="bold red")
    if err.get("case"):
        text.append(f"  ({err['case']})", style="dim")
    text.append("\n")
    text.append(describe(err, lang))
    raw = error_detail(err) if detail else Text()
    if raw:
        text.append("\n\n")
        text.append_text(raw)
    return text


def error_detail(err: dict) -> Text:
    """The raw detail (a traceback, the worker's last stderr lines): often longer than a panel's fixed-height
    header, so panels with one show it where they scroll."""
    text = Text()
    for key in ("traceback", "stderr_tail"):
        value = err.get(key)
        if value and isinstance(value, str):
            if text:
                text.append("\n\n")
            text.append(str(value).rstrip(), style="dim")
    return text


def restart_notice(err: dict, lang: str, last_exit: str | None) -> str | None:
    """'worker restarted after a crash: SIGSEGV (…)' for results that took the worker down, else None.

    `last_exit` (the client's English description) is no longer shown: the error's own facts say it in
    `lang`."""
    kind = Kind.parse(err.get("kind"))
    if kind is None or not kind.restarts_worker:
        return None
    if kind is Kind.CRASH and "exit_code" not in err and not err.get("signal"):
        return None  # the worker never started: nothing was restarted (the badge says why)
    if kind is Kind.CRASH and err.get("cause") in ("compiler", "no-result", "runner"):
        return None  # `ir`'s compiler process died, or a runner died or gave no answer: the worker is up
    if kind is Kind.CRASH:
        if err.get("signal"):
            why = signal_text(err["signal"], lang)
        elif err.get("exit_code") is not None:
            why = pick(lang, f"exit code {err['exit_code']}", f"終了コード {err['exit_code']}")
        else:
            why = "?"
        return t("restarted_crash", lang, why=why)
    if kind is Kind.TIMEOUT:
        if err.get("stopped") in ("runner", "compiler"):
            return None  # the judge stopped the learner's runner (or `ir` its compiler); the worker is up
        return t("restarted_timeout", lang)
    return t("restarted_fault", lang)
