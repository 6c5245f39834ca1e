"""The footer, kept true while the terminal window is in the background, and rebuilt only when what it shows
changes.

Textual's Footer ignores binding changes while the app has no terminal focus and does not catch up when focus
returns, so a job that ended while the learner looked at another window left "Esc Cancel" showing with
F5–F7 missing. This one always redraws for the screen it is on.

Textual's Footer also rebuilds all its keys for every bindings signal (focus moves, screens stack, relabels):
`open 5/add` rebuilt the two footers 13 times (7 + 6, 10–40 ms each) around its first paint, and each screen's
rebuilds all drew the same keys. Signals that arrive before the next refresh are answered by one rebuild, and
a rebuild that would draw the same keys as the last one is skipped.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer


class LabFooter(Footer):
    def __init__(self, **kwargs) -> None:
        # ctrl+p is listed in the help (F1); at 80 columns its footer entry pushed "F1 Help" off the row.
        kwargs.setdefault("show_command_palette", False)
        super().__init__(**kwargs)
        self._drawn: tuple | None = None  # what the last compose drew (`_shown_keys`), None before any keys
        self._rebuild_pending = False
        self.rebuilds = 0  # composes that drew keys (tests count them)

    def bindings_changed(self, screen: Screen) -> None:
        self._bindings_ready = True
        if self.is_attached and screen is self.screen and not self._rebuild_pending:
            self._rebuild_pending = True
            self.call_after_refresh(self._rebuild)

    async def _rebuild(self) -> None:
        self._rebuild_pending = False
        if not self.is_attached or self._shown_keys() == self._drawn:
            return  # the same keys, descriptions and states as drawn: nothing to rebuild
        await self.recompose()

    def _shown_keys(self) -> tuple | None:
        """Everything `Footer.compose` draws from: each shown binding (key, its display, description, action,
        group, enabled, tooltip) in order, and whether the command palette's key is offered."""
        if not self._bindings_ready:
            return None
        app = self.app
        return (
            tuple(
                (
                    binding.key,
                    app.get_key_display(binding),
                    binding.description,
                    binding.action,
                    binding.group,
                    enabled,
                    tooltip,
                )
                for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
                if binding.show
            ),
            self.show_command_palette and app.ENABLE_COMMAND_PALETTE,
        )

    def compose(self) -> ComposeResult:
        self._drawn = self._shown_keys()
        if self._drawn is not None:
            self.rebuilds += 1
        yield from super().compose()
