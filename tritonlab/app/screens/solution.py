"""The reference solution as a unified diff against the learner's code."""

from __future__ import annotations

import difflib
from typing import ClassVar

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Static

from tritonlab.app.strings import t


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


class SolutionScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,f3", "close", show=False)]

    def __init__(self, mine: str, solution: str) -> None:
        super().__init__()
        self.diff = solution_diff(mine, solution)

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        with Vertical(id="solution-dialog"):
            yield Static(t("solution_title", lang), id="solution-title", markup=False)
            with VerticalScroll(id="solution-scroll"):
                if self.diff:
                    dark = getattr(self.app.current_theme, "dark", True)
                    yield Static(
                        Syntax(
                            self.diff,
                            "diff",
                            theme="monokai" if dark else "default",
                            background_color="default",
                            word_wrap=True,
                        ),
                        id="solution-diff",
                    )
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
