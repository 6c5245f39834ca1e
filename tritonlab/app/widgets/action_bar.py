"""The action bar: Run / Verify / Benchmark while idle, Cancel while a job runs, and the job's status line."""

from __future__ import annotations

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


class ActionBar(Horizontal):
    def compose(self) -> ComposeResult:
        for button_id, _label, _key, action in BUTTONS:
            yield Button("", id=button_id, action=action, compact=True, classes="action")
        yield Static(id="status", markup=False)

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

    def set_status(self, message: str, style: str = "") -> None:
        status = self.query_one("#status", Static)
        status.update(Text(message, style=style, no_wrap=True, overflow="ellipsis"))
