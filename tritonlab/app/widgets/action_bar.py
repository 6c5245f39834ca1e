"""The action bar: Run / Verify / Benchmark while idle, Cancel while a job runs, and the job's status line."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Button, Static

from tritonlab.app.strings import t

BUTTONS = (  # id, label key, key, action
    ("act-run", "run", "F5", "screen.run_code"),
    ("act-verify", "verify", "F6", "screen.verify"),
    ("act-bench", "bench", "F7", "screen.bench"),
    ("act-cancel", "cancel", "Esc", "screen.cancel_job"),
)


class StatusLine(Static):
    """One line that never cuts a sentence in the middle: when the full message does not fit, the short form
    (written for the purpose, e.g. 'Verify: syntax error at line 26 — details in Results') is shown
    instead."""

    def __init__(self, **kwargs) -> None:
        super().__init__(markup=False, **kwargs)
        self.full = ""
        self.short: str | None = None
        self.style_name = ""

    def show(self, full: str, style: str = "", short: str | None = None) -> None:
        self.full, self.short, self.style_name = full, short, style
        self.refresh()

    def chosen(self) -> str:
        width = self.content_region.width or self.size.width
        if self.short is not None and width and cell_len(self.full) > width:
            return self.short
        return self.full

    def mark_stale(self, suffix: str, short_suffix: str) -> None:
        """The message is about code that has changed since: keep it, dimmed, with `suffix` saying so."""
        self.short = f"{self.short or self.full} {short_suffix}"
        self.full = f"{self.full} {suffix}"
        self.style_name = "dim"
        self.refresh()

    def render(self) -> Text:
        return Text(self.chosen(), style=self.style_name, no_wrap=True, overflow="ellipsis")

    def on_resize(self) -> None:
        self.refresh()


class ActionBar(Horizontal):
    def compose(self) -> ComposeResult:
        for button_id, _label, _key, action in BUTTONS:
            yield Button("", id=button_id, action=action, compact=True, classes="action")
        yield StatusLine(id="status")

    def on_mount(self) -> None:
        self.watch(self.app, "lang", self._relabel)

    def _relabel(self, lang: str) -> None:
        for button_id, label, key, _action in BUTTONS:
            button = self.query_one(f"#{button_id}", Button)
            button.label = f"{t(label, lang)} {key}"
            # Without a layout refresh a new label keeps the old width: 'Benchma', 'Verify' with no F6.
            button.refresh(layout=True)

    def set_busy(self, busy: bool) -> None:
        self.set_class(busy, "-busy")

    def set_status(self, message: str, style: str = "", short: str | None = None) -> None:
        """`short` is shown instead of `message` where the line is too narrow for it (80 columns)."""
        self.query_one("#status", StatusLine).show(message, style, short)

    def mark_stale(self, suffix: str, short_suffix: str) -> None:
        self.query_one("#status", StatusLine).mark_stale(suffix, short_suffix)

    @property
    def status_text(self) -> str:
        """What the status line says now (the form that fits)."""
        return self.query_one("#status", StatusLine).chosen()
