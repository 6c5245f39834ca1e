"""The footer, kept true while the terminal window is in the background.

Textual's Footer ignores binding changes while the app has no terminal focus and does not catch up when focus
returns, so a job that ended while the learner looked at another window left "Esc Cancel" showing with
F5–F7 missing. This one always redraws for the screen it is on.
"""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class LabFooter(Footer):
    def __init__(self, **kwargs) -> None:
        # ctrl+p is listed in the help (F1); at 80 columns its footer entry pushed "F1 Help" off the row.
        kwargs.setdefault("show_command_palette", False)
        super().__init__(**kwargs)

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if self.is_attached and screen is self.screen:
            self.call_after_refresh(self.recompose)
