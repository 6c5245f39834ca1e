"""Small text helpers shared by the result panels (rich Text only, no widgets)."""

from __future__ import annotations

from rich.text import Text

from tritonlab.app.strings import t

CRASH_KINDS = ("crash", "timeout", "cuda-fault")


def number(value, digits: int = 3) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        return f"{value:.{digits}g}"
    if isinstance(value, int) and abs(value) >= 10_000:
        return f"{value:,}"
    return str(value)


def error_text(err: dict, lang: str) -> Text:
    """The error's headline (kind, line) and message, then any detail the worker sent."""
    kind = err.get("kind", "error")
    head = (
        t("error_at", lang, kind=kind, line=err["line"]) if err.get("line") else t("error", lang, kind=kind)
    )
    text = Text()
    text.append(head, style="bold red")
    if err.get("case"):
        text.append(f"  ({err['case']})", style="dim")
    text.append("\n")
    text.append(str(err.get("message", "")))
    for key in ("hint", "detail", "traceback", "stderr_tail"):
        value = err.get(key)
        if value:
            text.append("\n\n")
            text.append(str(value).rstrip(), style="dim")
    return text


def restart_notice(err: dict, lang: str, last_exit: str | None) -> str | None:
    """'worker restarted after a crash: SIGSEGV' for results that took the worker down, else None."""
    kind = err.get("kind")
    if kind == "crash" and "exit_code" not in err and not err.get("signal"):
        return None  # the worker never started: nothing was restarted (the badge says why)
    if kind == "crash":
        why = (
            err.get("signal")
            or last_exit
            or (f"exit code {err['exit_code']}" if err.get("exit_code") else "?")
        )
        return t("restarted_crash", lang, why=why)
    if kind == "timeout":
        return t("restarted_timeout", lang)
    if kind == "cuda-fault":
        return t("restarted_fault", lang)
    return None
