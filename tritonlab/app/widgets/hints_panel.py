"""Hints tab: the exercise's hints, gentle to explicit, revealed one at a time."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Button, Static

from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess
from tritonlab.content.model import tr


class HintsPanel(LabAppAccess, VerticalScroll):
    def __init__(self, hints: list[dict], **kwargs) -> None:
        super().__init__(**kwargs)
        self.hints = hints
        self.revealed = 0

    def compose(self) -> ComposeResult:
        yield Static(id="hints-body", markup=False)
        yield Button("", id="hint-next", compact=True)

    def on_mount(self) -> None:
        self.watch(self.app, "lang", lambda _lang: self._update_view())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "hint-next":
            event.stop()
            self.reveal_next()

    def reveal_next(self) -> None:
        if self.revealed < len(self.hints):
            self.revealed += 1
        self._update_view()
        self.scroll_end(animate=False)

    def _update_view(self) -> None:
        lang = self.lab_app.lang
        body = self.query_one("#hints-body", Static)
        button = self.query_one("#hint-next", Button)
        if not self.hints:
            body.update(Text(t("hints_none", lang), style="dim"))
            button.display = False
            return
        text = Text()
        for index, hint in enumerate(self.hints[: self.revealed], 1):
            text.append(t("hint_n", lang, n=index, total=len(self.hints)) + "\n", style="bold")
            text.append(tr(hint, lang) + "\n\n")
        if self.revealed >= len(self.hints):
            text.append(t("hint_all", lang), style="dim")
        body.update(text)
        button.display = self.revealed < len(self.hints)
        button.label = t("hint_show" if self.revealed == 0 else "hint_next", lang)
