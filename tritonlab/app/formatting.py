"""Small text helpers shared by the result panels (rich Text only, no widgets)."""

from __future__ import annotations

from rich.text import Text

from tritonlab.app.strings import kind_label, t

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


def error_head(err: dict, lang: str) -> str:
    """'out-of-bounds access at line 25', or the kind alone when no line is known."""
    kind = kind_label(err.get("kind"), lang)
    return (
        t("error_at", lang, kind=kind, line=err["line"]) if err.get("line") else t("error", lang, kind=kind)
    )


def value_text(value) -> str:
    """Got/expected values at a readable precision: float32 noise digits say nothing to a learner."""
    if isinstance(value, float):
        return f"{value:.6g}"
    return str(value)


def error_text(err: dict, lang: str) -> Text:
    """The error's headline (kind, line) and message, then any detail the worker sent."""
    head = error_head(err, lang)
    text = Text()
    text.append(head, style="bold red")
    if err.get("case"):
        text.append(f"  ({err['case']})", style="dim")
    text.append("\n")
    text.append(str(err.get("message", "")))
    for key in ("hint", "detail", "traceback", "stderr_tail"):
        value = err.get(key)
        if value and isinstance(value, str):  # a dict `detail` is for tools; the message already says it
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
