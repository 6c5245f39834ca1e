"""The lesson's explanation: its Markdown text in the chosen language, scrollable.

Prose is rendered with Rich's Markdown; each fenced code block gets its own horizontally scrollable strip, so
a long line of code (or a diagram) scrolls instead of wrapping mid-line, where a wrapped comment reads as
code.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from rich.markdown import Markdown
from rich.syntax import Syntax
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import HorizontalScroll, Vertical, VerticalScroll
from textual.widgets import Static

_CJK = "\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef"
# Inline markup may sit on either side of the break: 「…起動する\n**ホスト側ラッパー**」 is still CJK to CJK.
_ENDS_CJK = re.compile(rf"[{_CJK}][*_`]*$")
_STARTS_CJK = re.compile(rf"^\s*[*_`]*[{_CJK}]")
# After Japanese punctuation no space is ever wanted, whatever the next line starts with
# (「…5/add`、\n`tritonlab…」).
_ENDS_CJK_PUNCT = re.compile(r"[、。，．：；！？」』）][*_`]*$")
_LIST_ITEM = re.compile(r"^(?:[-*+]\s|\d+[.)]\s)")
_FENCE = re.compile(r"^(\s*)(```+|~~~+)\s*([\w+-]*)")


def join_cjk_soft_breaks(markdown: str) -> str:
    """Markdown turns a line break inside a paragraph into a space; between two Japanese characters that
    space is a visible gap (「ライフサイクルの 縮図」). Join such lines, outside code blocks, headings and
    tables."""
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
            and (
                (_ENDS_CJK.search(previous) and _STARTS_CJK.match(line))
                or (_ENDS_CJK_PUNCT.search(previous) and stripped)
            )
            and not previous.lstrip().startswith(("#", "|", "```", "~~~"))
            and not stripped.startswith(("#", "|", ">"))
            and not _LIST_ITEM.match(stripped)
        ):
            out[-1] = previous + stripped
        else:
            out.append(line)
    return "\n".join(out)


@dataclass(frozen=True)
class Block:
    kind: str  # "prose" or "code"
    text: str
    language: str = ""


def split_blocks(markdown: str) -> list[Block]:
    """Prose and fenced code blocks, in order. A fence inside a list item loses the item's indentation."""
    blocks: list[Block] = []
    prose: list[str] = []
    code: list[str] | None = None
    fence, indent, language = "", 0, ""
    for line in markdown.split("\n"):
        match = _FENCE.match(line)
        if code is None and match:
            if prose:
                blocks.append(Block("prose", "\n".join(prose)))
                prose = []
            indent, fence, language = len(match.group(1)), match.group(2), match.group(3)
            code = []
        elif code is not None and line.strip().startswith(fence[:3]) and line.strip().strip(fence[0]) == "":
            blocks.append(Block("code", "\n".join(code), language or "text"))
            code = None
        elif code is not None:
            code.append(line[indent:] if line[:indent].strip() == "" else line.lstrip())
        else:
            prose.append(line)
    if code is not None:  # an unclosed fence: show what there is
        blocks.append(Block("code", "\n".join(code), language or "text"))
    if prose and any(line.strip() for line in prose):
        blocks.append(Block("prose", "\n".join(prose)))
    return blocks


class Explanation(VerticalScroll, can_focus=True):
    """Blocks rendered after the first frame: a long lesson (code highlighted) takes a noticeable moment."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "scroll_up", show=False),
        Binding("down", "scroll_down", show=False),
    ]

    def __init__(self, markdown: str, **kwargs) -> None:
        super().__init__(**kwargs)
        self._markdown = join_cjk_soft_breaks(markdown)

    def compose(self) -> ComposeResult:
        yield Vertical(id="explanation-body")

    def on_mount(self) -> None:
        self.watch(self.app, "theme", self._restyle, init=False)
        self.call_after_refresh(self._restyle)

    def _widgets(self) -> list[Static | HorizontalScroll]:
        dark = getattr(self.app.current_theme, "dark", True)
        widgets: list[Static | HorizontalScroll] = []
        for block in split_blocks(self._markdown):
            if block.kind == "prose":
                renderable = Markdown(
                    block.text, code_theme="monokai" if dark else "friendly", hyperlinks=False
                )
                widgets.append(Static(renderable, classes="explanation-prose"))
            else:
                syntax = Syntax(
                    block.text,
                    block.language,
                    theme="monokai" if dark else "friendly",
                    word_wrap=False,
                    background_color="default",
                )
                widgets.append(
                    HorizontalScroll(
                        Static(syntax, classes="explanation-code-text"), classes="explanation-code"
                    )
                )
        return widgets

    async def _restyle(self, _theme: str | None = None) -> None:
        body = self.query_one("#explanation-body", Vertical)
        await body.remove_children()
        await body.mount_all(self._widgets())

    def show(self, markdown: str) -> None:
        """New text (the language changed): rebuilt just after, then shown from the top."""
        markdown = join_cjk_soft_breaks(markdown)
        if markdown == self._markdown:
            return
        self._markdown = markdown
        self.call_later(self._rebuild_from_top)

    async def _rebuild_from_top(self) -> None:
        await self._restyle()
        self.scroll_home(animate=False)

    def plain_text(self) -> str:
        """The text as shown, block by block (for tests and for copying)."""
        return "\n".join(block.text for block in split_blocks(self._markdown))
