"""The code editor: a Python TextArea that indents like a Python editor and can point at the learner's failing
line.

A plain TextArea starts every new line at column 0, so a line typed inside a kernel breaks the indentation and
the next verify reports an IndentationError somewhere else. Here Enter keeps the indentation (one level more
after a line ending with ':'), Backspace in the indentation goes back one level, and Tab / shift+Tab indent or
dedent the selected lines. Esc is not handled here: the lesson screen owns it (it leaves the editor in every
layout).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.widgets import TextArea

INDENT = 4


def leading_spaces(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def new_line_indent(line_before_cursor: str) -> str:
    """The indentation Enter gives the new line: the current one, one level more after a ':' (a comment after
    the colon counts as code ending with ':' only when the code part ends with it)."""
    indent = leading_spaces(line_before_cursor)
    code = line_before_cursor.split("#", 1)[0].rstrip()
    if code.endswith(":"):
        indent += INDENT
    return " " * indent


class CodeEditor(TextArea):
    """Tree-sitter highlighted Python with line numbers; `show_error(line)` marks a line and moves the cursor
    to it."""

    COMPONENT_CLASSES = TextArea.COMPONENT_CLASSES | {"code-editor--error-line"}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+home", "document_start", "Start of file", show=False),
        Binding("ctrl+end", "document_end", "End of file", show=False),
        # Bindings, not key handling, so that the help (made from the live bindings) lists them.
        Binding("tab", "indent", "Indent", show=False),
        Binding("shift+tab", "dedent", "Dedent", show=False),
    ]

    def __init__(self, text: str = "", **kwargs) -> None:
        super().__init__(
            text,
            language="python",
            theme="css",
            soft_wrap=False,
            tab_behavior="indent",
            show_line_numbers=True,
            **kwargs,
        )
        self.indent_width = INDENT
        # TextArea selects a line on F6 and everything on F7; here those keys verify and benchmark.
        for key in ("f6", "f7"):
            self._bindings.key_to_bindings.pop(key, None)
        self.error_line: int | None = None  # 1-based, as tracebacks count

    def _set_document(self, text: str, language: str | None) -> None:
        super()._set_document(text, language)
        self._document_language = language

    def _watch_language(self, language: str | None) -> None:
        """TextArea builds its document in __init__, then __init__ sets `language` (a reactive that always
        updates) and this watcher built it again: the same text parsed and the highlight query compiled twice
        (~30 ms of the lesson screen's first paint). A document already built for this language is kept: it
        was built from this same text."""
        if language == getattr(self, "_document_language", object()):
            return
        super()._watch_language(language)

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._follow_app_theme)

    def watch_cursor_blink(self, _blink: bool) -> None:
        # TextArea's line cache keys a blinking-off cursor and a steady one alike: without this a line drawn
        # in the "off" phase keeps hiding a cursor that no longer blinks (it made snapshots flaky).
        self._repaint()

    def _follow_app_theme(self, _theme: str) -> None:
        """Syntax colours that read on the app's background: the CSS theme for dark apps, GitHub's for
        light."""
        dark = getattr(self.app.current_theme, "dark", True)
        self.theme = "css" if dark else "github_light"

    # ---- Python editing ---------------------------------------------------------------------------

    async def _on_key(self, event: events.Key) -> None:
        """Textual calls this, then TextArea's own `_on_key`, unless the default is prevented."""
        if event.key in ("tab", "escape"):
            # TextArea would insert a tab / move focus on. Prevented here but not stopped, the key goes on to
            # the bindings: `indent` for Tab, the screen's Esc.
            event.prevent_default()
            return
        if event.key == "enter" and not self.read_only:
            event.stop()
            event.prevent_default()
            self._newline()

    def _newline(self) -> None:
        start, end = self.selection
        first = min(start, end)
        row, column = first
        before = self.document.get_line(row)[:column]
        indent = new_line_indent(before)
        # Pressing Enter in the middle of an indent must not push the rest of the line right.
        self._replace_via_keyboard("\n" + indent, start, end)

    def _selected_rows(self) -> range:
        start, end = sorted(self.selection)
        last = end[0] if end[1] > 0 or end[0] == start[0] else end[0] - 1
        return range(start[0], last + 1)

    def action_indent(self) -> None:
        """Tab: spaces to the next tab stop, or every selected line one level right."""
        if self.read_only:
            return
        start, end = self.selection
        if start[0] == end[0]:  # no multi-line selection: a tab stop, in spaces, at the cursor
            spaces = INDENT - (min(start, end)[1] % INDENT)
            self._replace_via_keyboard(" " * spaces, start, end)
            return
        self._shift_rows(self._selected_rows(), +INDENT)

    def action_dedent(self) -> None:
        if not self.read_only:
            self._shift_rows(self._selected_rows(), -INDENT)

    def _shift_rows(self, rows: range, by: int) -> None:
        """Indent (by > 0) or dedent the given rows as one edit, keeping the selection on the same text."""
        if not rows:
            return
        lines = [self.document.get_line(row) for row in rows]
        shifted = []
        changes = []
        for line in lines:
            if by > 0:
                change = by if line.strip() else 0
                shifted.append(" " * change + line)
            else:
                change = -min(-by, leading_spaces(line))
                shifted.append(line[-change:])
            changes.append(change)
        if not any(changes):
            return
        (srow, scol), (erow, ecol) = self.selection
        first, last = rows[0], rows[-1]
        self.replace("\n".join(shifted), (first, 0), (last, len(lines[-1])), maintain_selection_offset=False)

        def moved(row: int, col: int) -> tuple[int, int]:
            if first <= row <= last:
                return row, max(0, col + changes[row - first])
            return row, col

        self.selection = type(self.selection)(moved(srow, scol), moved(erow, ecol))

    def action_delete_left(self) -> None:
        """In the indentation, Backspace goes back to the previous indent level, not one space."""
        start, end = self.selection
        row, column = end
        before = self.document.get_line(row)[:column]
        if start == end and column > 0 and not before.strip(" ") and not self.read_only:
            target = (column - 1) // INDENT * INDENT
            self._delete_via_keyboard((row, target), end)
            return
        super().action_delete_left()

    def action_document_start(self) -> None:
        self.move_cursor((0, 0))

    def action_document_end(self) -> None:
        last = self.document.line_count - 1
        self.move_cursor((last, len(self.document.get_line(last))))

    def go_to_line(self, line: int) -> None:
        """Put the cursor at the start of `line` (1-based, clamped to the file), centred."""
        row = max(0, min(line, self.document.line_count) - 1)
        self.move_cursor((row, leading_spaces(self.document.get_line(row))), center=True)

    # ---- the error mark -----------------------------------------------------------------------------

    def get_line(self, line_index: int) -> Text:
        line = super().get_line(line_index)
        if self.error_line is not None and line_index == self.error_line - 1:
            line.stylize(self.get_component_rich_style("code-editor--error-line", partial=True))
        return line

    def show_error(self, line: int) -> None:
        """Mark `line` (1-based) and put the cursor on it, without taking focus from where the learner is."""
        if not 1 <= line <= self.document.line_count:
            return
        self.error_line = line
        self.highlight_cursor_line = False  # the error mark stays visible under the cursor
        self._repaint()
        self.cursor_location = (line - 1, 0)
        self.scroll_cursor_visible(center=True)

    def clear_error(self) -> None:
        if self.error_line is None:
            return
        self.error_line = None
        self.highlight_cursor_line = True
        self._repaint()

    def replace_text(self, text: str) -> None:
        """Load new text (reset, reload from $EDITOR) keeping the cursor where it was when the line still
        exists."""
        row, column = self.cursor_location
        self.clear_error()
        self.load_text(text)
        row = min(row, self.document.line_count - 1)
        self.cursor_location = (row, min(column, len(self.document.get_line(row))))

    def _repaint(self) -> None:
        # TextArea caches rendered lines by cursor/selection/theme; the error mark is none of those.
        self._line_cache.clear()
        self.refresh()
