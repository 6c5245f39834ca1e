"""The lesson's explanation: its Markdown text in the chosen language, scrollable."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.markdown import Markdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

_CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
_ENDS_CJK = re.compile(rf"[{_CJK}]$")
_STARTS_CJK = re.compile(rf"^\s*[{_CJK}]")


def join_cjk_soft_breaks(markdown: str) -> str:
    """Markdown turns a line break inside a paragraph into a space; between two Japanese characters that space
    is a visible gap (「ライフサイクルの 縮図」). Join such lines, outside code blocks, headings and tables."""
    out: list[str] = []
    fenced = False
    for line in markdown.split("\n"):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
            out.append(line)
            continue
        previous = out[-1] if out else ""
        if (
            not fenced
            and out
            and _ENDS_CJK.search(previous)
            and _STARTS_CJK.match(line)
            and not previous.lstrip().startswith(("#", "|", "```", "~~~"))
            and not stripped.startswith(("#", "|", "-", "*", "+", ">"))
            and not re.match(r"\d+[.)]\s", stripped)
        ):
            out[-1] = previous + stripped
        else:
            out.append(line)
    return "\n".join(out)


class Explanation(VerticalScroll, can_focus=True):
    """Rendered with Rich's Markdown in one Static: Textual's Markdown widget mounts a widget per block, which
    costs over a second for a long lesson and would push the first paint past a second."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", show=False),
        Binding("down", "scroll_down", show=False),
    ]

    def __init__(self, markdown: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self._markdown = join_cjk_soft_breaks(markdown)

    def compose(self) -> ComposeResult:
        yield Static(id="explanation-body")

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._restyle, init=False)
        # After the first frame: rendering a long lesson (code blocks highlighted) takes a noticeable moment.
        self.call_after_refresh(self._restyle)

    def _renderable(self) -> Markdown:
        dark = getattr(self.app.current_theme, "dark", True)
        return Markdown(self._markdown, code_theme="monokai" if dark else "friendly", hyperlinks=False)

    def _restyle(self, _theme: str | None = None) -> None:
        self.query_one("#explanation-body", Static).update(self._renderable())

    def show(self, markdown: str) -> None:
        markdown = join_cjk_soft_breaks(markdown)
        if markdown == self._markdown:
            return
        self._markdown = markdown
        self.query_one("#explanation-body", Static).update(self._renderable())
        self.scroll_home(animate=False)
