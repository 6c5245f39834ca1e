"""The code editor: a Python TextArea that can point at the learner's failing line."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import TextArea


class CodeEditor(TextArea):
    """Tree-sitter highlighted Python with line numbers; `show_error(line)` marks a line and moves the cursor to it."""

    COMPONENT_CLASSES = TextArea.COMPONENT_CLASSES | {"code-editor--error-line"}

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
        self.indent_width = 4
        # TextArea selects a line on F6 and everything on F7; here those keys verify and benchmark.
        for key in ("f6", "f7"):
            self._bindings.key_to_bindings.pop(key, None)
        self.error_line: int | None = None  # 1-based, as tracebacks count

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._follow_app_theme)

    def _follow_app_theme(self, _theme: str) -> None:
        """Syntax colours that read on the app's background: the CSS theme for dark apps, GitHub's for light."""
        dark = getattr(self.app.current_theme, "dark", True)
        self.theme = "css" if dark else "github_light"

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
        """Load new text (reset, reload from $EDITOR) keeping the cursor where it was when the line still exists."""
        row, column = self.cursor_location
        self.clear_error()
        self.load_text(text)
        row = min(row, self.document.line_count - 1)
        self.cursor_location = (row, min(column, len(self.document.get_line(row))))

    def _repaint(self) -> None:
        # TextArea caches rendered lines by cursor/selection/theme; the error mark is none of those.
        self._line_cache.clear()
        self.refresh()
