"""F1 / ?: the keys that work here and now, made from the live bindings of the screen underneath.

A hand-kept list drifts from the truth (it listed ctrl+t where ctrl+t did nothing). So the help takes the
bindings Textual would act on for the focused widget, its screen and the app — disabled ones left out — and
names each with words from `keys.HELP_LABELS` in the chosen language.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from tritonlab.app.keys import HELP_LABELS, help_label, key_name
from tritonlab.app.strings import t
from tritonlab.app.typed import LabAppAccess

FOCUS_NAMES = {  # looked up through the focused widget's classes: the results' tab row is a ContentTabs
    "CodeEditor": "focus_editor",
    "LessonList": "focus_list",
    "Tabs": "focus_tabs",
    "QuizChoices": "focus_quiz",
    "Button": "focus_button",
    "Input": "focus_field",
}


def focus_kind(widget) -> str | None:
    """The FOCUS_NAMES class the widget is (its own class or the nearest base), else its own class name."""
    if widget is None:
        return None
    return next(
        (c.__name__ for c in type(widget).__mro__ if c.__name__ in FOCUS_NAMES), type(widget).__name__
    )


@dataclass(frozen=True)
class KeyRow:
    keys: str  # as shown: "F1 / ?"
    label_key: str  # strings key
    group: str  # "focused", "screen" or "app"


def live_key_rows(screen: Screen) -> tuple[list[KeyRow], str | None]:
    """The screen's active bindings as help rows (keys of one action joined), and the focused widget's
    class."""
    rows: dict[tuple[str, str], list[str]] = {}
    groups: dict[tuple[str, str], str] = {}
    for key, active in screen.active_bindings.items():
        if not active.enabled:
            continue
        node = active.node
        label = help_label(node, active.binding.action)
        if label is None:
            continue
        group = "app" if isinstance(node, App) else "screen" if isinstance(node, Screen) else "focused"
        ident = (group, label)
        if key.startswith("super+"):  # the macOS command key: no terminal sends it
            continue
        display = key_name(key)
        rows.setdefault(ident, [])
        if display not in rows[ident]:
            rows[ident].append(display)
        groups[ident] = group
    focused = screen.focused
    order = list(dict.fromkeys(HELP_LABELS.values()))
    out = [
        KeyRow(" / ".join(keys), label, groups[ident]) for ident, keys in rows.items() for label in [ident[1]]
    ]
    out.sort(key=lambda row: order.index(row.label_key))
    return out, focus_kind(focused)


class HelpScreen(LabAppAccess, ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,question_mark,q", "close", show=False)]

    def __init__(self, under: Screen) -> None:
        super().__init__()
        self.rows, self.focused_class = live_key_rows(under)
        self.editor_focused = self.focused_class == "CodeEditor"

    def compose(self) -> ComposeResult:
        lang = self.lab_app.lang
        with Vertical(id="help-dialog"):
            yield Static(t("help_title", lang), id="help-title", markup=False)
            with VerticalScroll(id="help-scroll"):
                yield Static(self._body(lang), id="help-body")
            yield Static(Text(t("help_footer", lang), style="dim"), id="help-footer")

    def _body(self, lang: str) -> Group:
        parts: list = [Text(t("help_intro", lang)), Text("")]
        name_key = FOCUS_NAMES.get(self.focused_class or "")
        titles = {  # a widget with no words for it is not named (never a Textual class name)
            "focused": t("help_focused", lang, name=t(name_key, lang))
            if name_key
            else t("help_focused_plain", lang),
            "screen": t("help_screen", lang),
            "app": t("help_everywhere", lang),
        }
        for group in ("focused", "screen", "app"):
            rows = [row for row in self.rows if row.group == group]
            if not rows:
                continue
            table = Table.grid(padding=(0, 2))
            table.add_column(style="bold", no_wrap=True)
            table.add_column()
            for row in rows:
                table.add_row(row.keys, t(row.label_key, lang))
            parts += [Text(titles[group], style="underline"), table]
            if group == "focused" and self.editor_focused:
                parts.append(Text(t("help_editor_note", lang), style="dim"))
            parts.append(Text(""))
        return Group(*parts)

    def action_close(self) -> None:
        self.dismiss()
