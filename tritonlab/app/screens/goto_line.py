"""ctrl+g: a one-line box that asks for a line number and answers it (or None on Esc / empty input)."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess


class GoToLineScreen(LabAppAccess, ModalScreen[int | None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", show=False)]

    def __init__(self, line_count: int) -> None:
        super().__init__()
        self.line_count = line_count

    def compose(self) -> ComposeResult:
        with Vertical(id="goto-dialog"):
            yield Static(
                t("goto_prompt", self.lab_app.lang, count=self.line_count), id="goto-title", markup=False
            )
            yield Input(type="integer", id="goto-input", compact=True)

    def on_mount(self) -> None:
        self.query_one(Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        value = event.value.strip()
        self.dismiss(int(value) if value.lstrip("-").isdigit() else None)

    def action_close(self) -> None:
        self.dismiss(None)
