"""F1 / ?: every key, in the chosen language."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from tritonlab.app.strings import t

LESSON_KEYS = (
    ("F5", "run"),
    ("F6", "verify"),
    ("F7", "bench"),
    ("Esc", "cancel"),
    ("F2", "hint"),
    ("F3", "solution"),
    ("F4", "editor"),
    ("ctrl+r", "reset"),
    ("ctrl+n / ctrl+b", "help_next_prev"),
    ("ctrl+t", "panes"),
    ("Tab", "help_focus"),
    ("F9", "home"),
)
COMMON_KEYS = (
    ("F1  ?", "help"),
    ("ctrl+l", "language"),
    ("ctrl+p", "palette"),
    ("ctrl+q", "help_quit"),
)


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,question_mark,q", "close", show=False)]

    def compose(self) -> ComposeResult:
        lang = self.app.lang
        with Vertical(id="help-dialog"):
            yield Static(t("help_title", lang), id="help-title", markup=False)
            with VerticalScroll(id="help-scroll"):
                yield Static(self._body(lang), id="help-body")
            yield Static(Text(t("help_footer", lang), style="dim"), id="help-footer")

    @staticmethod
    def _body(lang: str) -> Group:
        table = Table.grid(padding=(0, 2))
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, label in LESSON_KEYS:
            table.add_row(key, t(label, lang))
        table.add_row("", "")
        for key, label in COMMON_KEYS:
            table.add_row(key, t(label, lang))
        return Group(
            Text(t("help_intro", lang)), Text(""), Text(t("help_keys_lesson", lang), style="underline"), table
        )

    def action_close(self) -> None:
        self.dismiss()
