"""The reference solution as a unified diff against the learner's code."""

from __future__ import annotations

import difflib
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess


def solution_diff(mine: str, solution: str) -> str:
    return "".join(
        difflib.unified_diff(
            mine.splitlines(keepends=True),
            solution.splitlines(keepends=True),
            fromfile="your code",
            tofile="solution",
            n=3,
        )
    )


DIFF_STYLES = {"+": "green", "-": "red", "@": "cyan", " ": ""}


class DiffView:
    """A unified diff that wraps long lines and repeats each line's +/- marker on its wrapped rows, so a
    wrapped row is never mistaken for context (Rich's Syntax wraps the marker away)."""

    def __init__(self, diff: str) -> None:
        self.lines = diff.splitlines()

    def __rich_console__(self, console, options):
        width = max(options.max_width - 2, 10)
        for line in self.lines:
            marker = line[:1] if line[:1] in "+-@ " else " "
            body = line[1:] if line[:1] in "+- " else line
            if line.startswith(("+++", "---")):
                marker, body = " ", line
            style = "bold" if line.startswith(("+++", "---")) else DIFF_STYLES.get(marker, "")
            rows = Text(body, style=style).wrap(console, width, tab_size=4) if body else [Text("")]
            for row in rows:
                yield Text.assemble((marker if marker in "+-" else " ", style), " ", row)

    def __rich_measure__(self, console, options):
        from rich.measure import Measurement

        return Measurement(10, options.max_width)


class SolutionScreen(LabAppAccess, ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f3", "close", show=False)]

    def __init__(self, mine: str, solution: str) -> None:
        super().__init__()
        self.diff = solution_diff(mine, solution)

    def compose(self) -> ComposeResult:
        lang = self.lab_app.lang
        with Vertical(id="solution-dialog"):
            yield Static(t("solution_title", lang), id="solution-title", markup=False)
            with VerticalScroll(id="solution-scroll"):
                if self.diff:
                    yield Static(DiffView(self.diff), id="solution-diff")
                else:
                    yield Static(Text(t("solution_same", lang), style="green"), id="solution-diff")
            yield Button(f"{t('close', lang)} (Esc)", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#solution-scroll").focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss()

    def action_close(self) -> None:
        self.dismiss()
